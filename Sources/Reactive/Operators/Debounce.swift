import Synchronization

extension Signal {
    /// Each value sent on `scheduler` once `interval` has passed without a newer value; values that are
    /// followed sooner are dropped.
    ///
    /// - Parameters:
    ///   - interval: how long a value must stay the newest to be sent.
    ///   - scheduler: where the waiting happens and the values are sent.
    ///   - discardWhenCompleted: on completion, whether to drop the value still waiting (the
    ///     default, as in ReactiveSwift) or to send it when its interval ends and complete right after.
    ///
    /// Failure and interruption are sent on `scheduler` at once and drop the waiting value; completion
    /// is sent on `scheduler` too. Disposing the returned signal cancels the waiting work.
    public func debounce(
        _ interval: Duration, on scheduler: any TimeScheduler, discardWhenCompleted: Bool = true
    ) -> Signal {
        Signal { downstream, lifetime in
            let debouncer = Debouncer(interval: interval, scheduler: scheduler, downstream: downstream)
            lifetime += debouncer
            lifetime += observe { event in
                switch event {
                case let .value(value):
                    debouncer.receive(value)
                case .completed where !discardWhenCompleted:
                    let waiting = debouncer.takeWaiting()
                    lifetime += scheduler.schedule(at: waiting?.due ?? scheduler.now) {
                        if let value = waiting?.value { downstream.send(value: value) }
                        downstream.sendCompleted()
                    }
                case .failed, .completed, .interrupted:
                    debouncer.dispose()
                    lifetime += scheduler.schedule { downstream.send(event) }
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

/// The waiting value of a debounce and its one scheduled check.
///
/// A new value does not reschedule: it only moves the deadline, and the pending check, when it runs
/// early, waits again for the rest. So a burst of values costs one scheduled action, not one each.
/// Thread-safety: values arrive from the upstream's delivery and checks run on the scheduler; the state
/// is under a mutex and values are sent outside it.
private final class Debouncer<Value: Sendable, Failure: Error>: Disposable {
    private struct State {
        var latest: Value?
        var lastArrival = SchedulerTime.zero
        var isCheckScheduled = false
    }

    private enum Step {
        case send(Value)
        case wait(until: SchedulerTime)
        case stop
    }

    private let interval: Duration
    private let scheduler: any TimeScheduler
    private let downstream: Observer<Value, Failure>
    private let state = Mutex(State())
    private let pendingCheck = ScheduledSlot()

    init(interval: Duration, scheduler: any TimeScheduler, downstream: Observer<Value, Failure>) {
        self.interval = interval
        self.scheduler = scheduler
        self.downstream = downstream
    }

    var isDisposed: Bool { pendingCheck.isDisposed }

    func dispose() {
        pendingCheck.dispose()
        state.withLock { $0.latest = nil }
    }

    func receive(_ value: Value) {
        let now = scheduler.now
        let mustSchedule = state.withLock { state -> Bool in
            state.latest = value
            state.lastArrival = now
            defer { state.isCheckScheduled = true }
            return !state.isCheckScheduled
        }
        if mustSchedule { scheduleCheck(at: now + interval) }
    }

    /// Removes the waiting value, with the time it falls due, and stops the checks.
    func takeWaiting() -> (value: Value, due: SchedulerTime)? {
        defer { pendingCheck.dispose() }
        return state.withLock { state in
            defer { state.latest = nil }
            return state.latest.map { ($0, state.lastArrival + interval) }
        }
    }

    private func scheduleCheck(at time: SchedulerTime) {
        pendingCheck.schedule { scheduler.schedule(at: time) { [self] in check() } }
    }

    private func check() {
        let now = scheduler.now
        let step = state.withLock { state -> Step in
            let due = state.lastArrival + interval
            guard due <= now else { return .wait(until: due) }
            state.isCheckScheduled = false
            defer { state.latest = nil }
            return state.latest.map(Step.send) ?? .stop
        }
        switch step {
        case let .send(value): downstream.send(value: value)
        case let .wait(until: due): scheduleCheck(at: due)
        case .stop: break
        }
    }
}
