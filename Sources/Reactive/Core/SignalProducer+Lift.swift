extension SignalProducer {
    /// Applies a signal operator to every signal this producer starts: the way every producer
    /// operator is built.
    ///
    /// Disposing a start of the result interrupts this producer's start, and the interruption reaches
    /// the result through `transform`: an asynchronous operator delivers it on its scheduler.
    public func lift<U, F>(
        _ transform: @escaping @Sendable (Signal<Value, Failure>) -> Signal<U, F>
    ) -> SignalProducer<U, F> {
        SignalProducer<U, F>(forwardingInterruption: { observer, lifetime, resultInterrupter in
            startWithSignal { signal, interrupter in
                lifetime += interrupter
                resultInterrupter.forward(to: interrupter)
                transform(signal).observe(observer, during: lifetime)
            }
        })
    }

    /// Applies a two-signal operator to the signals of this producer and `other`, started in that order
    /// after the operator has observed both.
    ///
    /// Disposing a start of the result interrupts both starts, and the result ends with the first
    /// interruption to reach it through `transform`: with an asynchronous operator on one side only, that
    /// is usually the other side's, at once.
    public func lift<U, F, W, G>(
        _ other: SignalProducer<U, F>,
        _ transform: @escaping @Sendable (Signal<Value, Failure>, Signal<U, F>) -> Signal<W, G>
    ) -> SignalProducer<W, G> {
        SignalProducer<W, G>(forwardingInterruption: { observer, lifetime, resultInterrupter in
            other.startWithSignal { otherSignal, otherInterrupter in
                startWithSignal { signal, interrupter in
                    lifetime += interrupter
                    lifetime += otherInterrupter
                    resultInterrupter.forward(to: otherInterrupter)
                    resultInterrupter.forward(to: interrupter)
                    transform(signal, otherSignal).observe(observer, during: lifetime)
                }
            }
        })
    }
}
