extension SignalProducer {
    /// The values of one start of this producer, as an async sequence that throws its failure.
    ///
    /// The producer starts when this property is read, and its values are buffered without bound until
    /// the consumer takes them (see `values(bufferingPolicy:)` to bound them). Bridging of terminal
    /// events: `completed` and `interrupted` end the sequence normally; `failed` throws the `Failure`
    /// value, typed as `any Error` (cast it back with `catch let error as Failure`). Cancelling the
    /// consuming task, or dropping the sequence, disposes the start.
    ///
    /// (Disfavored so that a producer that cannot fail picks the non-throwing `AsyncStream` overload
    /// instead of being ambiguous, as Combine's `values` does.)
    @_disfavoredOverload
    public var values: AsyncThrowingStream<Value, any Error> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values of one start of this producer, keeping at most what `bufferingPolicy` says while the
    /// consumer is behind; see `values`.
    @_disfavoredOverload
    public func values(
        bufferingPolicy: AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream(bufferingPolicy: bufferingPolicy) { continuation in
            let start = SerialDisposable()
            // Installed before starting, so a start that ends at once still finds its handler.
            continuation.onTermination = { _ in start.dispose() }
            start.inner = self.start { event in
                switch event {
                case let .value(value): continuation.yield(value)
                case let .failed(error): continuation.finish(throwing: error)
                case .completed, .interrupted: continuation.finish()
                }
            }
        }
    }
}

extension SignalProducer where Failure == Never {
    /// The values of one start of this producer, as an async sequence that cannot throw.
    ///
    /// The producer starts when this property is read, and its values are buffered without bound until
    /// the consumer takes them (see `values(bufferingPolicy:)`). `completed` and `interrupted` end the
    /// sequence. Cancelling the consuming task, or dropping the sequence, disposes the start.
    public var values: AsyncStream<Value> {
        values(bufferingPolicy: .unbounded)
    }

    /// The values of one start of this producer, keeping at most what `bufferingPolicy` says while the
    /// consumer is behind; see `values`.
    public func values(bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let start = SerialDisposable()
            continuation.onTermination = { _ in start.dispose() }
            start.inner = self.start { event in
                switch event {
                case let .value(value): continuation.yield(value)
                case .completed, .interrupted: continuation.finish()
                }
            }
        }
    }
}
