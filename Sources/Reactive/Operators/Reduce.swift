extension Signal {
    /// The result of combining every value with `next`, starting from `initial`, sent once when this
    /// signal completes (`initial` itself if no value came), then completion.
    ///
    /// A failure or interruption passes through without a result.
    @inlinable
    public func reduce<U: Sendable>(
        _ initial: U, _ next: @escaping @Sendable (U, Value) -> U
    ) -> Signal<U, Failure> {
        reduce(into: initial) { result, value in result = next(result, value) }
    }

    /// The result of folding every value into `initial` in place with `next`, sent once when this
    /// signal completes, then completion.
    ///
    /// A failure or interruption passes through without a result.
    @inlinable
    public func reduce<U: Sendable>(
        into initial: U, _ next: @escaping @Sendable (inout U, Value) -> Void
    ) -> Signal<U, Failure> {
        relay { downstream, _ in
            let accumulator = SerialBox(initial)
            return Observer { event in
                switch event {
                case let .value(value):
                    next(&accumulator.value, value)
                case .completed:
                    downstream.send(value: accumulator.value)
                    downstream.sendCompleted()
                case .failed, .interrupted:
                    downstream.send(event.terminal()!)
                }
            }
        }
    }
}

extension SignalProducer {
    /// The result of combining every value with `next`, starting from `initial`, sent once on
    /// completion; see `Signal.reduce(_:_:)`.
    @inlinable
    public func reduce<U: Sendable>(
        _ initial: U, _ next: @escaping @Sendable (U, Value) -> U
    ) -> SignalProducer<U, Failure> {
        lift { $0.reduce(initial, next) }
    }

    /// The result of folding every value into `initial` in place, sent once on completion; see
    /// `Signal.reduce(into:_:)`.
    @inlinable
    public func reduce<U: Sendable>(
        into initial: U, _ next: @escaping @Sendable (inout U, Value) -> Void
    ) -> SignalProducer<U, Failure> {
        lift { $0.reduce(into: initial, next) }
    }
}
