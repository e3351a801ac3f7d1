extension Signal {
    /// Each value transformed by `transform`.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> Signal<U, Failure> {
        relay { downstream, _ in
            Observer { event in downstream.send(event.map(transform)) }
        }
    }

    /// Each failure transformed by `transform`.
    @inlinable
    public func mapError<F>(_ transform: @escaping @Sendable (Failure) -> F) -> Signal<Value, F> {
        relay { downstream, _ in
            Observer { event in downstream.send(event.mapError(transform)) }
        }
    }
}

extension SignalProducer {
    /// Each value transformed by `transform`.
    @inlinable
    public func map<U>(_ transform: @escaping @Sendable (Value) -> U) -> SignalProducer<U, Failure> {
        lift { $0.map(transform) }
    }

    /// Each failure transformed by `transform`.
    @inlinable
    public func mapError<F>(_ transform: @escaping @Sendable (Failure) -> F) -> SignalProducer<Value, F> {
        lift { $0.mapError(transform) }
    }
}
