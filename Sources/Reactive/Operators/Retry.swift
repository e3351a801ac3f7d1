extension SignalProducer {
    /// Starts this producer again when it fails, up to `count` more times; the failure after the last
    /// retry is sent on. The values of failed attempts are sent too.
    ///
    /// Completion and interruption end the result at once. Synchronous failures retry in constant
    /// stack. Disposing a start interrupts the attempt running, and the interruption reaches the result
    /// through it (on its scheduler, if the attempt hops).
    public func retry(upTo count: Int) -> SignalProducer {
        SignalProducer(forwardingInterruption: { observer, lifetime, resultInterrupter in
            let retries = Countdown(count)
            RestartLoop(self, downstream: observer, lifetime: lifetime, resultInterrupter: resultInterrupter) { event in
                event.error != nil && retries.take()
            }.start()
        })
    }
}
