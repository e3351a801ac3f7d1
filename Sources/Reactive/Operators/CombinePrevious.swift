extension Signal {
    /// Each value paired with the value before it, as `(previous, current)`; the first value is paired
    /// with `initial`.
    @inlinable
    public func combinePrevious(_ initial: Value) -> Signal<(Value, Value), Failure> {
        combinePrevious(startingWith: initial)
    }

    /// Each value from the second on paired with the value before it, as `(previous, current)`; the
    /// first value is only remembered.
    @inlinable
    public func combinePrevious() -> Signal<(Value, Value), Failure> {
        combinePrevious(startingWith: nil)
    }

    /// The shared implementation: a `nil` `initial` means the first value has no partner.
    @inlinable
    func combinePrevious(startingWith initial: Value?) -> Signal<(Value, Value), Failure> {
        relay { downstream, _ in
            let previous = SerialBox(initial)
            return Observer { event in
                guard case let .value(value) = event else { return downstream.send(event.terminal()!) }
                defer { previous.value = value }
                if let last = previous.value { downstream.send(value: (last, value)) }
            }
        }
    }
}

extension SignalProducer {
    /// Each value paired with the value before it, as `(previous, current)`; the first value is paired
    /// with `initial`.
    @inlinable
    public func combinePrevious(_ initial: Value) -> SignalProducer<(Value, Value), Failure> {
        lift { $0.combinePrevious(initial) }
    }

    /// Each value from the second on paired with the value before it, as `(previous, current)`.
    @inlinable
    public func combinePrevious() -> SignalProducer<(Value, Value), Failure> {
        lift { $0.combinePrevious() }
    }
}
