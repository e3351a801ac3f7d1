extension Signal {
    /// Only the values for which `isIncluded` is true.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        relay { downstream, _ in
            Observer { event in
                if case let .value(value) = event, !isIncluded(value) { return }
                downstream.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// Only the values for which `isIncluded` is true.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> SignalProducer {
        lift { $0.filter(isIncluded) }
    }
}
