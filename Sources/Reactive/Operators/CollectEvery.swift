import Synchronization

extension Signal {
    /// The values gathered into an array every `interval`, sent on `scheduler`.
    ///
    /// The clock starts when the operator is applied (when a producer starts).
    /// - Parameters:
    ///   - interval: how long each gathering lasts; must be positive.
    ///   - scheduler: where the timer runs and the arrays are sent.
    ///   - skipEmpty: whether an interval with no values sends nothing instead of an empty array; empty
    ///     arrays are sent by default, so the output ticks steadily, as in ReactiveSwift.
    ///   - discardWhenCompleted: on completion, whether to drop the values of the unfinished interval
    ///     (the default, as in ReactiveSwift) or to send them when it ends and complete right after.
    ///
    /// Failure and interruption are sent on `scheduler` at once and drop the unfinished interval.
    /// Disposing the returned signal stops the timer.
    public func collect(
        every interval: Duration, on scheduler: any TimeScheduler, skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> Signal<[Value], Failure> {
        Signal<[Value], Failure> { downstream, lifetime in
            let state = Mutex(CollectState<Value>())
            let ticks = scheduler.schedule(
                after: interval, every: interval, leeway: interval / 10
            ) {
                let (batch, isCompleted) = state.withLock { state in
                    defer { state.values = [] }
                    return (state.values, state.isCompleted)
                }
                if !batch.isEmpty || !skipEmpty { downstream.send(value: batch) }
                if isCompleted { downstream.sendCompleted() }
            }
            lifetime += ticks
            lifetime += observe { event in
                switch event {
                case let .value(value):
                    state.withLock { $0.values.append(value) }
                case .completed where !discardWhenCompleted:
                    state.withLock { $0.isCompleted = true }
                case .failed, .completed, .interrupted:
                    ticks?.dispose()
                    state.withLock { $0.values = [] }
                    lifetime += scheduler.schedule { downstream.send(event.terminal()!) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// The values gathered into an array every `interval`; see `Signal.collect(every:on:skipEmpty:discardWhenCompleted:)`.
    public func collect(
        every interval: Duration, on scheduler: any TimeScheduler, skipEmpty: Bool = false,
        discardWhenCompleted: Bool = true
    ) -> SignalProducer<[Value], Failure> {
        lift { $0.collect(every: interval, on: scheduler, skipEmpty: skipEmpty, discardWhenCompleted: discardWhenCompleted) }
    }
}

/// What a collect remembers: the values of the current interval, and whether the source completed.
private struct CollectState<Value> {
    var values: [Value] = []
    var isCompleted = false
}
