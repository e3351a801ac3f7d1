extension Signal {
    /// The values of all `signals`, interleaved as they come.
    ///
    /// Completes when every signal has completed; fails or is interrupted as soon as one of them is.
    public static func merge(_ signals: Signal...) -> Signal {
        merge(signals)
    }

    /// The values of all `signals`, interleaved as they come; see `merge(_:)`. Empty: completes at once.
    public static func merge<S: Sequence>(_ signals: S) -> Signal where S.Element == Signal {
        let producers = signals.map { SignalProducer($0) }
        return Signal { downstream, lifetime in
            let flattener = ConcurrentFlattener(limit: .max, downstream: downstream, lifetime: lifetime)
            for producer in producers { flattener.receiveOuter(.value(producer)) }
            flattener.receiveOuter(.completed)
        }
    }

    /// The values of this signal and `other`, interleaved as they come.
    public func merge(with other: Signal) -> Signal {
        Signal.merge(self, other)
    }
}

extension SignalProducer {
    /// The values of all `producers`, started together in order and interleaved as they come.
    ///
    /// Completes when every producer has completed; fails or is interrupted as soon as one of them is.
    public static func merge(_ producers: SignalProducer...) -> SignalProducer {
        merge(producers)
    }

    /// The values of all `producers`; see `merge(_:)`. Empty: completes at once.
    public static func merge<S: Sequence>(_ producers: S) -> SignalProducer where S.Element == SignalProducer {
        SignalProducer<SignalProducer, Failure>(Array(producers)).flatten(.merge)
    }

    /// The values of this producer and `other`, started together and interleaved as they come.
    public func merge(with other: SignalProducer) -> SignalProducer {
        SignalProducer.merge(self, other)
    }
}
