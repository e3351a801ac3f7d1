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
    public func lift<U, F, W, G>(
        _ other: SignalProducer<U, F>,
        _ transform: @escaping @Sendable (Signal<Value, Failure>, Signal<U, F>) -> Signal<W, G>
    ) -> SignalProducer<W, G> {
        SignalProducer<W, G> { observer, lifetime in
            other.startWithSignal { otherSignal, otherInterrupter in
                startWithSignal { signal, interrupter in
                    lifetime += interrupter
                    lifetime += otherInterrupter
                    transform(signal, otherSignal).observe(observer, during: lifetime)
                }
            }
        }
    }
}
