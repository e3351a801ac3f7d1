extension Signal {
    /// The same events, unless the signal has not terminated `interval` after this call: then it fails
    /// with `error`, sent on `scheduler`.
    ///
    /// Events of this signal are forwarded as they come, on their own thread; the timer is cancelled as
    /// soon as the returned signal terminates or is disposed.
    public func timeout(
        after interval: Duration, raising error: Failure, on scheduler: any TimeScheduler
    ) -> Signal {
        Signal { downstream, lifetime in
            lifetime += scheduler.schedule(after: interval) { downstream.send(error: error) }
            lifetime += observe(downstream)
        }
    }
}

extension SignalProducer {
    /// The same events, unless the start has not terminated `interval` after it began: then it fails
    /// with `error`. See `Signal.timeout(after:raising:on:)`.
    public func timeout(
        after interval: Duration, raising error: Failure, on scheduler: any TimeScheduler
    ) -> SignalProducer {
        lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}

extension Signal where Failure == Never {
    /// The same events, retyped to fail with `F`, unless the signal has not terminated `interval` after
    /// this call: then it fails with `error`, sent on `scheduler`. See `timeout(after:raising:on:)`.
    public func timeout<F: Error>(
        after interval: Duration, raising error: F, on scheduler: any TimeScheduler
    ) -> Signal<Value, F> {
        Signal<Value, F> { downstream, lifetime in
            lifetime += scheduler.schedule(after: interval) { downstream.send(error: error) }
            lifetime += observe { event in
                switch event {
                case let .value(value): downstream.send(value: value)
                case .completed: downstream.sendCompleted()
                case .interrupted: downstream.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer where Failure == Never {
    /// The same events, retyped to fail with `F`, unless the start has not terminated `interval` after it
    /// began: then it fails with `error`. See `Signal.timeout(after:raising:on:)`.
    public func timeout<F: Error>(
        after interval: Duration, raising error: F, on scheduler: any TimeScheduler
    ) -> SignalProducer<Value, F> {
        lift { $0.timeout(after: interval, raising: error, on: scheduler) }
    }
}
