import Synchronization

extension Signal {
    /// Each value sent on `scheduler` once `interval` has passed without a newer value; values that are
    /// followed sooner are dropped.
    ///
    /// - Parameter discardWhenCompleted: on completion, whether to drop the value still waiting (the
    ///   default, as in ReactiveSwift) or to send it when its interval ends and complete right after.
    ///
    /// Failure and interruption are sent on `scheduler` at once and drop the waiting value; completion
    /// is sent on `scheduler` too. Disposing the returned signal cancels the waiting work.
    public func debounce(
        _ interval: Duration, on scheduler: any TimeScheduler, discardWhenCompleted: Bool = true
    ) -> Signal {
        Signal { downstream, lifetime in
            let state = Mutex(DebounceState<Value>())
            let pendingSend = ScheduledSlot()
            lifetime += pendingSend
            lifetime += observe { event in
                switch event {
                case let .value(value):
                    let now = scheduler.now
                    let generation = state.withLock { state in
                        state.latest = value
                        state.lastArrival = now
                        state.generation += 1
                        return state.generation
                    }
                    pendingSend.schedule {
                        scheduler.schedule(at: now + interval) {
                            let value = state.withLock { state -> Value? in
                                // A newer value restarted the wait; its own action will send it.
                                guard state.generation == generation else { return nil }
                                defer { state.latest = nil }
                                return state.latest
                            }
                            if let value { downstream.send(value: value) }
                        }
                    }
                case .completed where !discardWhenCompleted:
                    let (waiting, lastArrival) = state.withLock { state in
                        defer { state.latest = nil }
                        return (state.latest, state.lastArrival)
                    }
                    pendingSend.schedule {
                        guard let waiting else { return scheduler.schedule { downstream.sendCompleted() } }
                        return scheduler.schedule(at: lastArrival + interval) {
                            downstream.send(value: waiting)
                            downstream.sendCompleted()
                        }
                    }
                case .failed, .completed, .interrupted:
                    pendingSend.schedule { scheduler.schedule { downstream.send(event) } }
                }
            }
        }
    }
}

extension SignalProducer {
    /// Each value sent once `interval` has passed without a newer one; see `Signal.debounce(_:on:)`.
    public func debounce(
        _ interval: Duration, on scheduler: any TimeScheduler, discardWhenCompleted: Bool = true
    ) -> SignalProducer {
        lift { $0.debounce(interval, on: scheduler, discardWhenCompleted: discardWhenCompleted) }
    }
}

/// What a debounce remembers: the value waiting, when it arrived, and which arrival it was.
private struct DebounceState<Value> {
    var latest: Value?
    var lastArrival = SchedulerTime.zero
    var generation: UInt64 = 0
}
