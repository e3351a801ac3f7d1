extension Signal {
    /// None of the values, only the terminal event.
    ///
    /// The value type is kept rather than turned into `Never`, so the result still fits wherever a stream
    /// of this type is expected (to wait for a stream's end before starting another of the same type,
    /// for example) without a conversion operator.
    @inlinable
    public func ignoreValues() -> Signal {
        relay { downstream, _ in
            Observer { event in
                if event.isTerminating { downstream.send(event) }
            }
        }
    }
}

extension SignalProducer {
    /// None of the values, only the terminal event; see `Signal.ignoreValues()`.
    @inlinable
    public func ignoreValues() -> SignalProducer {
        lift { $0.ignoreValues() }
    }
}
