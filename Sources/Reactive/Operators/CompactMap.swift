extension Signal {
    /// Each value transformed by `transform`, leaving out the values it turns into `nil`.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Failure> {
        relay { downstream, _ in
            Observer { event in
                guard case let .value(value) = event else { return downstream.send(event.terminal()!) }
                if let transformed = transform(value) { downstream.send(value: transformed) }
            }
        }
    }
}

extension SignalProducer {
    /// Each value transformed by `transform`, leaving out the values it turns into `nil`.
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> SignalProducer<U, Failure> {
        lift { $0.compactMap(transform) }
    }
}
