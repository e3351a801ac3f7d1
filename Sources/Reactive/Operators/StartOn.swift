extension SignalProducer {
    /// A producer whose start handler runs on `scheduler` instead of the thread calling `start`.
    ///
    /// Only the work of starting hops; events are sent wherever the start handler sends them (pair with
    /// `observe(on:)` to move their delivery too). Disposing before the scheduler got to it cancels the
    /// start, so the start handler never runs, and the interruption is sent at once on the disposing
    /// thread. Once started, disposing interrupts the inner start, so an `observe(on:)` inside still
    /// delivers the interruption on its own scheduler.
    public func start(on scheduler: any Scheduler) -> SignalProducer {
        SignalProducer(forwardingInterruption: { observer, lifetime, resultInterrupter in
            lifetime += scheduler.schedule {
                guard !lifetime.hasEnded else { return }
                startWithSignal { signal, interrupter in
                    lifetime += interrupter
                    resultInterrupter.forward(to: interrupter)
                    lifetime += signal.observe(observer)
                }
            }
        })
    }
}
