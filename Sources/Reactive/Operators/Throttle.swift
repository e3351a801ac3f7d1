import Synchronization

extension Signal {
    /// At most one value per `interval`, sent on `scheduler`: a value that arrives after a quiet interval
    /// (the first one, for instance) goes out at once, at the scheduler's next turn; of the values that
    /// arrive while the interval since the last one sent is running, only the latest is sent when it ends.
    ///
    /// Terminal events are sent on `scheduler` at once; a value still held back is dropped (as in
    /// ReactiveSwift). Disposing the returned signal cancels the waiting work.
    public func throttle(_ interval: Duration, on scheduler: any TimeScheduler) -> Signal {
        Signal { downstream, lifetime in
            let state = Mutex(ThrottleState<Value>())
            let pendingSend = ScheduledSlot()
            lifetime += pendingSend
            lifetime += observe { event in
                guard case let .value(value) = event else {
                    pendingSend.dispose()
                    lifetime += scheduler.schedule { downstream.send(event) }
                    return
                }
                let now = scheduler.now
                let due = state.withLock { state -> SchedulerTime? in
                    // A value already waiting means its send is scheduled: the newer one just takes its place.
                    defer { state.latest = value }
                    guard state.latest == nil else { return nil }
                    guard let lastSent = state.lastSent, lastSent <= now else { return now }
                    return Swift.max(lastSent + interval, now)
                }
                guard let due else { return }
                pendingSend.schedule {
                    scheduler.schedule(at: due) {
                        let value = state.withLock { state -> Value? in
                            defer { state.latest = nil }
                            if state.latest != nil { state.lastSent = due }
                            return state.latest
                        }
                        if let value { downstream.send(value: value) }
                    }
                }
            }
        }
    }
}

extension SignalProducer {
    /// At most one value per `interval`, the latest winning; see `Signal.throttle(_:on:)`.
    public func throttle(_ interval: Duration, on scheduler: any TimeScheduler) -> SignalProducer {
        lift { $0.throttle(interval, on: scheduler) }
    }
}

/// What a throttle remembers: when it last sent, and the value waiting to be sent.
private struct ThrottleState<Value> {
    var lastSent: SchedulerTime?
    var latest: Value?
}
