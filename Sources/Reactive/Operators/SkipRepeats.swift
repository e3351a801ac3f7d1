extension Signal {
    /// Each value that is not equivalent to the one received before it; the first value always passes.
    ///
    /// Each value is compared with the one just before it, whether that one was sent or skipped, as in
    /// ReactiveSwift; for a non-transitive `isEquivalent`, a slow drift is therefore never sent.
    ///
    /// - Parameter isEquivalent: called with the previous value and the new one.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        relay { downstream, _ in
            let previous = SerialBox<Value?>(nil)
            return Observer { event in
                guard case let .value(value) = event else { return downstream.send(event) }
                defer { previous.value = value }
                if let last = previous.value, isEquivalent(last, value) { return }
                downstream.send(event)
            }
        }
    }
}

extension Signal where Value: Equatable {
    /// Each value that differs from the one before it; the first value always passes.
    @inlinable
    public func skipRepeats() -> Signal {
        skipRepeats(==)
    }
}

extension SignalProducer {
    /// Each value that is not equivalent to the one before it; the first value always passes.
    ///
    /// - Parameter isEquivalent: called with the previous value and the new one.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> SignalProducer {
        lift { $0.skipRepeats(isEquivalent) }
    }
}

extension SignalProducer where Value: Equatable {
    /// Each value that differs from the one before it; the first value always passes.
    @inlinable
    public func skipRepeats() -> SignalProducer {
        lift { $0.skipRepeats() }
    }
}
