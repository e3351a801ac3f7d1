import StreamProtocol

extension StreamConnection {
    /// Appends one event to `stream` (created with the default policy if missing) and returns once it
    /// is durable.
    ///
    /// - Parameters:
    ///   - payload: the event's bytes, stored as they are.
    ///   - stream: the stream to append to.
    ///   - expectedLastSequence: if given, the append succeeds only when the stream's last sequence is
    ///     this (0 = empty); otherwise it throws `.server(code: .wrongLastSequence, …)`.
    ///   - messageID: de-duplication: a recently seen id is not stored again (the receipt's `duplicate` is true).
    public func append(
        _ payload: [UInt8], to stream: String, expectedLastSequence: UInt64? = nil, messageID: String? = nil
    ) async throws -> AppendReceipt {
        let message = ClientMessage.Publish(
            stream: stream, expectedLastSequence: expectedLastSequence, messageID: messageID, payload: payload)
        return try receipt(await request(.publish(message)), stream: stream)
    }

    /// Appends several events to `stream`; one receipt per payload, in order.
    ///
    /// A batch that fits one frame (see `BatchSplitter`) is one commit. A larger one is sent as several
    /// batches, each one commit, in order; with `expectedLastSequence`, each expects the last sequence of
    /// the one before. If one fails, the ones before it stay stored and the error is thrown.
    public func append(contentsOf payloads: [[UInt8]], to stream: String, expectedLastSequence: UInt64? = nil) async throws -> [AppendReceipt] {
        let splitter = BatchSplitter(frameLength: Int(maximumFrameLength), stream: stream, conditional: expectedLastSequence != nil)
        var published: [AppendReceipt] = []
        published.reserveCapacity(payloads.count)
        var expected = expectedLastSequence
        for part in splitter.parts(of: payloads) {
            let receipts = try await append(oneBatch: Array(payloads[part]), to: stream, expectedLastSequence: expected)
            published += receipts
            if expected != nil { expected = receipts.last?.sequence ?? expected }
        }
        return published
    }

    /// Appends `payloads` in one `PUBLISH_BATCH`.
    private func append(oneBatch payloads: [[UInt8]], to stream: String, expectedLastSequence: UInt64?) async throws -> [AppendReceipt] {
        let entries = payloads.map { ClientMessage.PublishBatch.Entry(payload: $0) }
        let reply = try await request(.publishBatch(.init(stream: stream, expectedLastSequence: expectedLastSequence, entries: entries)))
        guard case let .publishedBatch(published, timestamp) = reply else { throw unexpected(reply, "PUBLISHED_BATCH") }
        return published.map { AppendReceipt(stream: stream, sequence: $0.sequence, timestamp: timestamp, duplicate: $0.duplicate) }
    }

    /// Stores the completion of `stream` as its last event: subscribers complete when they reach it,
    /// and the stream accepts no more events. Returns the completion's own sequence.
    @discardableResult
    public func appendCompleted(to stream: String, expectedLastSequence: UInt64? = nil) async throws -> AppendReceipt {
        try await endStream(stream, failure: nil, expectedLastSequence: expectedLastSequence)
    }

    /// Stores the failure of `stream`, with `message`, as its last event: subscribers fail with
    /// `.streamFailed(message)` when they reach it, and the stream accepts no more events.
    @discardableResult
    public func appendFailed(to stream: String, message: String, expectedLastSequence: UInt64? = nil) async throws -> AppendReceipt {
        try await endStream(stream, failure: message, expectedLastSequence: expectedLastSequence)
    }

    private func endStream(_ stream: String, failure: String?, expectedLastSequence: UInt64?) async throws -> AppendReceipt {
        try receipt(await request(.endStream(stream: stream, failure: failure, expectedLastSequence: expectedLastSequence)), stream: stream)
    }

    private func receipt(_ reply: ServerMessage, stream: String) throws -> AppendReceipt {
        guard case let .published(sequence, timestamp, duplicate) = reply else { throw unexpected(reply, "PUBLISHED") }
        return AppendReceipt(stream: stream, sequence: sequence, timestamp: timestamp, duplicate: duplicate)
    }

    /// A round trip to the daemon.
    public func ping() async throws {
        let nonce = UInt64.random(in: 0...UInt64.max)
        let reply = try await request(.ping(nonce: nonce))
        guard case .pong(nonce) = reply else { throw unexpected(reply, "PONG with the same nonce") }
    }

    /// Creates `stream` with `policy`; creating it again with the same policy is not an error.
    ///
    /// - Throws: `.server(code: .unsupportedVersion, …)` without sending anything when `policy` names
    ///   a de-duplication window and the daemon speaks a protocol older than version 4.
    @discardableResult
    public func createStream(_ stream: String, policy: StreamPolicy = StreamPolicy()) async throws -> StreamInfo {
        try requireWindows(for: policy)
        return try info(from: await request(.createStream(name: stream, policy: policy)))
    }

    /// Changes how `stream` keeps its events. A daemon older than protocol version 4 keeps the
    /// stream's de-duplication window; naming one for such a daemon throws as `createStream` does.
    @discardableResult
    public func configureStream(_ stream: String, policy: StreamPolicy) async throws -> StreamInfo {
        try requireWindows(for: policy)
        return try info(from: await request(.configureStream(name: stream, policy: policy)))
    }

    private func requireWindows(for policy: StreamPolicy) throws {
        guard policy.deduplication != nil else { return }
        try require(version: ProtocolVersions.deduplicationWindows, for: "de-duplication windows per stream")
    }

    /// What `stream` holds; throws `.server(code: .streamNotFound, …)` if there is no such stream.
    public func streamInfo(_ stream: String) async throws -> StreamInfo {
        try info(from: await request(.getStreamInfo(name: stream)))
    }

    /// Every stream, by name. From a daemon speaking protocol version 2, in pages of at most
    /// `pageSize` streams (`LIST_STREAMS_PAGE`), so no reply exceeds the frame maximum however many
    /// streams there are; streams created or deleted meanwhile may or may not be listed, and none is
    /// listed twice.
    public func listStreams(pageSize: UInt32 = 10_000) async throws -> [StreamInfo] {
        guard protocolVersion >= 2 else {
            let reply = try await request(.listStreams)
            guard case let .streamList(streams) = reply else { throw unexpected(reply, "STREAM_LIST") }
            return streams
        }
        var streams: [StreamInfo] = []
        var after: String? = nil
        while true {
            let reply = try await request(.listStreamsPage(after: after, limit: pageSize))
            guard case let .streamPage(page, more) = reply else { throw unexpected(reply, "STREAM_PAGE") }
            streams += page
            guard more, let last = page.last?.name else { return streams }
            after = last
        }
    }

    /// Removes old events of `stream` (or, with `dryRun`, only counts them).
    ///
    /// - Returns: how many events were (or would be) removed, and the first sequence left (0 if none).
    @discardableResult
    public func truncate(_ stream: String, _ truncation: Truncation, dryRun: Bool = false) async throws -> (removed: UInt64, firstSequence: UInt64) {
        let reply = try await request(.truncateStream(name: stream, truncation: truncation, dryRun: dryRun))
        guard case let .truncated(removed, first) = reply else { throw unexpected(reply, "TRUNCATED") }
        return (removed, first)
    }

    /// Deletes `stream` and its events; its subscriptions end.
    public func deleteStream(_ stream: String) async throws {
        let reply = try await request(.deleteStream(name: stream))
        guard case .ok = reply else { throw unexpected(reply, "OK") }
    }

    private func info(from reply: ServerMessage) throws -> StreamInfo {
        guard case let .streamInfo(info) = reply else { throw unexpected(reply, "STREAM_INFO") }
        return info
    }

    func unexpected(_ reply: ServerMessage, _ expected: String) -> StreamClientError {
        .protocolViolation("expected \(expected), got \(reply.description)")
    }
}
