import StreamProtocol

extension StreamConnection: StreamStore {
    /// Returns `stream`, creating it with `policy` if it is missing; an existing stream keeps its own
    /// policy, as `EventLog.ensureStream` does (where `createStream` refuses another policy).
    @discardableResult
    public func ensureStream(_ stream: String, policy: StreamPolicy = StreamPolicy()) async throws -> StreamInfo {
        do {
            return try await createStream(stream, policy: policy)
        } catch let StreamClientError.server(code, _) where code == .streamExists {
            return try await streamInfo(stream)
        }
    }

    /// What `stream` holds, or nil if there is no such stream (as `StreamStore` and `EventLog` have it).
    ///
    /// Disfavored so that a plain `try await connection.streamInfo(_:)` keeps meaning the overload that
    /// throws `.server(code: .streamNotFound, …)` for a missing stream.
    @_disfavoredOverload
    public func streamInfo(_ stream: String) async throws -> StreamInfo? {
        do {
            return try await streamInfo(stream) as StreamInfo
        } catch let StreamClientError.server(code, _) where code == .streamNotFound {
            return nil
        }
    }

    /// Appends one event; `append(_:to:expectedLastSequence:messageID:)` without the options.
    @discardableResult
    public func append(_ payload: [UInt8], to stream: String) async throws -> AppendReceipt {
        try await append(payload, to: stream, expectedLastSequence: nil, messageID: nil)
    }

    /// Appends several events; `append(contentsOf:to:expectedLastSequence:)` without the condition.
    @discardableResult
    public func append(contentsOf payloads: [[UInt8]], to stream: String) async throws -> [AppendReceipt] {
        try await append(contentsOf: payloads, to: stream, expectedLastSequence: nil)
    }

    /// Stores the completion of `stream`; `appendCompleted(to:expectedLastSequence:)` without the condition.
    @discardableResult
    public func appendCompleted(to stream: String) async throws -> AppendReceipt {
        try await appendCompleted(to: stream, expectedLastSequence: nil)
    }

    /// Stores the failure of `stream`; `appendFailed(to:message:expectedLastSequence:)` without the condition.
    @discardableResult
    public func appendFailed(to stream: String, message: String) async throws -> AppendReceipt {
        try await appendFailed(to: stream, message: message, expectedLastSequence: nil)
    }

    /// The values of `stream` from `start`, history then live: `subscribe(_:from:)` in the terms every
    /// store shares. Events arrive on the connection's event-loop thread (see `subscribe`).
    ///
    /// A stored failure fails the producer with `StreamFailure(message)`; any other error (no such
    /// stream, a lost connection, a deleted stream) with origin `.storage`.
    public func follow(_ stream: String, from start: StartPosition) -> SignalProducer<StoredEvent, StreamFailure> {
        subscribe(stream, from: start)
            .map { StoredEvent(sequence: $0.sequence, timestamp: $0.timestamp, payload: $0.payload) }
            .mapError { error in
                if case let .streamFailed(message) = error { return StreamFailure(message) }
                return StreamFailure(storage: error)
            }
    }
}
