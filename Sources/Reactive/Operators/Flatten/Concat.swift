extension SignalProducer {
    /// The values of `producers`, each started when the one before it has completed.
    ///
    /// Fails or is interrupted as soon as the running producer is. Runs in constant stack however many
    /// producers complete synchronously, so prefer this to a long chain of `concat(_:)` calls.
    public static func concat(_ producers: SignalProducer...) -> SignalProducer {
        concat(producers)
    }

    /// The values of `producers`, one after the other; see `concat(_:)`. Empty: completes at once.
    public static func concat<S: Sequence>(_ producers: S) -> SignalProducer where S.Element == SignalProducer {
        SignalProducer<SignalProducer, Failure>(Array(producers)).flatten(.concat)
    }

    /// This producer's values, then, once it has completed, those of `next`.
    public func concat(_ next: SignalProducer) -> SignalProducer {
        SignalProducer.concat(self, next)
    }

    /// This producer's values, then `value` once it has completed.
    public func concat(value: Value) -> SignalProducer {
        concat(SignalProducer(value: value))
    }

    /// The values of `first`, then, once it has completed, this producer's.
    ///
    /// RAC calls this `startWith:`; this module uses ReactiveSwift's name only, so there is one way
    /// to say it.
    public func prefix(_ first: SignalProducer) -> SignalProducer {
        SignalProducer.concat(first, self)
    }

    /// `value`, then this producer's values (RAC's `startWith:`).
    public func prefix(value: Value) -> SignalProducer {
        prefix(SignalProducer(value: value))
    }

    /// Ignores this producer's values and, once it has completed, sends those of `replacement`.
    ///
    /// If this producer fails or is interrupted, so is the result and `replacement` never starts.
    public func then<U>(_ replacement: SignalProducer<U, Failure>) -> SignalProducer<U, Failure> {
        SignalProducer<SignalProducer<U, Failure>, Failure>([lift { $0.discardingValues() }, replacement])
            .flatten(.concat)
    }
}

extension Signal {
    /// Ignores this signal's values and, once it has completed, starts `replacement` and sends its
    /// values; see `SignalProducer.then(_:)`.
    public func then<U>(_ replacement: SignalProducer<U, Failure>) -> Signal<U, Failure> {
        Signal<U, Failure> { downstream, lifetime in
            lifetime += SignalProducer(self).then(replacement).start(downstream)
        }
    }

    /// Only this signal's terminal event, retyped for another value type.
    func discardingValues<U>(as _: U.Type = U.self) -> Signal<U, Failure> {
        relay { downstream, _ in
            Observer { event in
                if let terminal = event.terminal(as: U.self) { downstream.send(terminal) }
            }
        }
    }
}
