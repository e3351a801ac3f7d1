extension Signal {
    /// Each value combined with the running result; sends every intermediate result.
    @inlinable
    public func scan<U: Sendable>(
        _ initial: U, _ next: @escaping @Sendable (U, Value) -> U
    ) -> Signal<U, Failure> {
        relay { downstream, _ in
            let accumulator = SerialBox(initial)
            return Observer { event in
                guard case let .value(value) = event else { return downstream.send(event.terminal()!) }
                accumulator.value = next(accumulator.value, value)
                downstream.send(value: accumulator.value)
            }
        }
    }

    /// Each value folded into the running result in place; sends every intermediate result.
    @inlinable
    public func scan<U: Sendable>(
        into initial: U, _ next: @escaping @Sendable (inout U, Value) -> Void
    ) -> Signal<U, Failure> {
        relay { downstream, _ in
            let accumulator = SerialBox(initial)
            return Observer { event in
                guard case let .value(value) = event else { return downstream.send(event.terminal()!) }
                next(&accumulator.value, value)
                downstream.send(value: accumulator.value)
            }
        }
    }
}

extension SignalProducer {
    /// Each value combined with the running result; sends every intermediate result.
    @inlinable
    public func scan<U: Sendable>(
        _ initial: U, _ next: @escaping @Sendable (U, Value) -> U
    ) -> SignalProducer<U, Failure> {
        lift { $0.scan(initial, next) }
    }

    /// Each value folded into the running result in place; sends every intermediate result.
    @inlinable
    public func scan<U: Sendable>(
        into initial: U, _ next: @escaping @Sendable (inout U, Value) -> Void
    ) -> SignalProducer<U, Failure> {
        lift { $0.scan(into: initial, next) }
    }
}
