extension SignalProducer {
    /// Starts this producer `count` times in a row, each start when the previous one has completed,
    /// and completes after the last; `count` of 0 or less completes at once.
    ///
    /// A start failing or being interrupted ends the result the same way, without restarting.
    /// Synchronous producers repeat in constant stack.
    public func `repeat`(_ count: Int) -> SignalProducer {
        SignalProducer { observer, lifetime in
            guard count > 0 else { return observer.sendCompleted() }
            let restarts = Countdown(count - 1)
            RestartLoop(self, downstream: observer, lifetime: lifetime) { event in
                event.isCompleted && restarts.take()
            }.start()
        }
    }
}
