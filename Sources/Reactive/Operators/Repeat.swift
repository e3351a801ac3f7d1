extension SignalProducer {
    /// Starts this producer `count` times in a row, each start when the previous one has completed,
    /// and completes after the last; `count` of 0 or less completes at once.
    ///
    /// A start failing or being interrupted ends the result the same way, without restarting.
    /// Synchronous producers repeat in constant stack. Disposing a start interrupts the start running,
    /// and the interruption reaches the result through it (on its scheduler, if that start hops).
    public func `repeat`(_ count: Int) -> SignalProducer {
        SignalProducer(forwardingInterruption: { observer, lifetime, resultInterrupter in
            guard count > 0 else { return observer.sendCompleted() }
            let restarts = Countdown(count - 1)
            RestartLoop(self, downstream: observer, lifetime: lifetime, resultInterrupter: resultInterrupter) { event in
                event.isCompleted && restarts.take()
            }.start()
        })
    }
}
