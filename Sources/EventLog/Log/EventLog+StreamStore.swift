extension EventLog: StreamStore {
    /// Appends `payloads` in one commit (all or none), like `append(contentsOf:to:)`, and returns one
    /// receipt per payload, as `StreamStore` (and `streamd`) give them.
    ///
    /// Disfavored so that a plain `try await log.append(contentsOf:to:)` keeps meaning the overload that
    /// returns one receipt for the whole commit.
    @_disfavoredOverload
    @discardableResult
    public func append(contentsOf payloads: [[UInt8]], to stream: String) async throws -> [AppendReceipt] {
        let receipt: AppendReceipt = try await append(contentsOf: payloads, to: stream)
        return receipt.sequences.map {
            AppendReceipt(stream: stream, sequence: $0, timestamp: receipt.timestamp, duplicate: receipt.duplicate)
        }
    }

    /// The values of `stream` from `start`, history then live, as `follow(_:from:_:)` delivers them, as a
    /// producer: each start follows the stream until it ends, fails, or the start is disposed.
    ///
    /// The history is delivered on the thread that starts the producer, the live events on the log's
    /// notification queue. A stored completion completes the producer, a stored failure fails it with
    /// `StreamFailure(message)`, and a stream that cannot be read fails it with origin `.storage`.
    public func follow(_ stream: String, from start: StartPosition) -> SignalProducer<StoredEvent, StreamFailure> {
        SignalProducer { observer, lifetime in
            do {
                let observation = try self.follow(stream, from: start) { event in
                    switch event.kind {
                    case .value:
                        observer.send(value: StoredEvent(sequence: event.sequence, timestamp: event.timestamp, payload: event.payload))
                    case .completed: observer.sendCompleted()
                    case .failed: observer.send(error: StreamFailure(event.failureMessage ?? ""))
                    }
                }
                lifetime += AnyDisposable { observation.cancel() }
            } catch {
                observer.send(error: StreamFailure(storage: error))
            }
        }
    }
}
