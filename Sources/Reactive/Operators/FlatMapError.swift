extension Signal {
    /// On failure, the events of the producer `transform` makes from the error, in place of the failure.
    ///
    /// Values, completion and interruption before a failure pass through. Disposing the result
    /// disposes the recovery producer too.
    public func flatMapError<F>(
        _ transform: @escaping @Sendable (Failure) -> SignalProducer<Value, F>
    ) -> Signal<Value, F> {
        Signal<Value, F> { downstream, lifetime in
            lifetime += observe { event in
                switch event {
                case let .value(value): downstream.send(value: value)
                case let .failed(error): lifetime += transform(error).start(downstream)
                case .completed: downstream.sendCompleted()
                case .interrupted: downstream.sendInterrupted()
                }
            }
        }
    }

    /// RAC's name for `flatMapError(_:)` (`-catch:`): on failure, continues with another producer.
    public func `catch`<F>(
        _ recovery: @escaping @Sendable (Failure) -> SignalProducer<Value, F>
    ) -> Signal<Value, F> {
        flatMapError(recovery)
    }
}

extension SignalProducer {
    /// On failure, the events of the producer `transform` makes from the error; see
    /// `Signal.flatMapError(_:)`.
    public func flatMapError<F>(
        _ transform: @escaping @Sendable (Failure) -> SignalProducer<Value, F>
    ) -> SignalProducer<Value, F> {
        lift { $0.flatMapError(transform) }
    }

    /// RAC's name for `flatMapError(_:)` (`-catch:`): on failure, continues with another producer.
    public func `catch`<F>(
        _ recovery: @escaping @Sendable (Failure) -> SignalProducer<Value, F>
    ) -> SignalProducer<Value, F> {
        flatMapError(recovery)
    }
}
