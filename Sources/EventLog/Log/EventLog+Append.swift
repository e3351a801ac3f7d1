extension EventLog {
    /// Appends one event and returns its sequence and timestamp once the commit holding it is durable.
    ///
    /// - Throws: `EventLogError`: `streamNotFound`, `streamEnded`, `invalidArgument` (too large),
    ///   `diskFull`, `readOnly`, `closed`, … In every failure case nothing of the append is stored.
    @discardableResult
    public func append(_ payload: [UInt8], to stream: String) throws -> AppendReceipt {
        try wait { submit(stream: stream, kind: .value, payloads: [payload], lead: true, completion: $0) }
    }

    /// Appends `payloads` as consecutive events, committed together (all or none).
    @discardableResult
    public func append(contentsOf payloads: [[UInt8]], to stream: String) throws -> AppendReceipt {
        try wait { completion in
            guard !payloads.isEmpty else { return append(contentsOf: payloads, to: stream, completion: completion) }
            submit(stream: stream, kind: .value, payloads: payloads, lead: true, completion: completion)
        }
    }

    /// Stores the stream's completion; the stream accepts nothing after it.
    @discardableResult
    public func appendCompleted(to stream: String) throws -> AppendReceipt {
        try wait { submit(stream: stream, kind: .completed, payloads: [[]], lead: true, completion: $0) }
    }

    /// Stores the stream's failure with `message`; the stream accepts nothing after it.
    @discardableResult
    public func appendFailed(to stream: String, message: String) throws -> AppendReceipt {
        try wait { submit(stream: stream, kind: .failed, payloads: [Array(message.utf8)], lead: true, completion: $0) }
    }

    /// Appends one event; `await` returns once its commit is durable.
    @discardableResult
    public func append(_ payload: [UInt8], to stream: String) async throws -> AppendReceipt {
        try await withCheckedThrowingContinuation { continuation in
            append(payload, to: stream) { continuation.resume(with: $0) }
        }
    }

    /// Appends `payloads` as consecutive events; `await` returns once their commit is durable.
    @discardableResult
    public func append(contentsOf payloads: [[UInt8]], to stream: String) async throws -> AppendReceipt {
        try await withCheckedThrowingContinuation { continuation in
            append(contentsOf: payloads, to: stream) { continuation.resume(with: $0) }
        }
    }

    /// Appends one event and calls `completion` after the commit (or the failure), on the thread that
    /// committed (the writer thread, or a synchronous appender leading a shared commit).
    /// `completion` must be short and must not wait for another append.
    ///
    /// With `commitOnCallingThreadIfIdle`, a caller that finds nobody committing and nothing queued
    /// commits at once on its own thread and runs `completion` there before returning, saving two
    /// thread hand-offs; otherwise the append joins the writer's next group commit and this returns
    /// at once. A server thread answering one request at a time wants that; an async caller does not.
    public func append(
        _ payload: [UInt8], to stream: String, commitOnCallingThreadIfIdle: Bool = false,
        completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        submit(stream: stream, kind: .value, payloads: [payload], lead: commitOnCallingThreadIfIdle, completion: completion)
    }

    /// Appends `payloads` and calls `completion` after the commit (or the failure), like `append(_:to:completion:)`.
    public func append(
        contentsOf payloads: [[UInt8]], to stream: String, commitOnCallingThreadIfIdle: Bool = false,
        completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        guard !payloads.isEmpty else {
            completion(.failure(EventLogError(.invalidArgument, "an append needs at least one event; the batch was empty.", stream: stream)))
            return
        }
        submit(
            stream: stream, kind: .value, payloads: payloads,
            lead: commitOnCallingThreadIfIdle, completion: completion)
    }

    /// Appends `payloads`, all of `kind`, with their `messageIDs` (one per payload, or none), if
    /// `stream` ends at `expectedLastSequence` when they are numbered (any sequence when nil), and
    /// returns once they are durable; otherwise throws `wrongLastSequence` and stores nothing.
    ///
    /// The ids are stored with the events, for `rememberedMessageIDs`; this log does not check them
    /// (`checksMessageIDs` is false): its one process remembers them itself.
    package func append(
        _ kind: LogEvent.Kind, _ payloads: [[UInt8]], messageIDs: [String?], to stream: String,
        expectingLastSequence expectedLastSequence: UInt64?
    ) throws -> AppendReceipt {
        try wait { completion in
            submit(
                stream: stream, kind: kind, payloads: payloads, expectedLastSequence: expectedLastSequence, messageIDs: messageIDs, lead: true,
                completion: completion)
        }
    }

    private func submit(
        stream: String, kind: LogEvent.Kind, payloads: [[UInt8]], expectedLastSequence: UInt64? = nil, messageIDs: [String?] = [],
        lead: Bool = false, completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        var request = AppendRequest(
            stream: stream, kind: kind, payloads: payloads, expectedLastSequence: expectedLastSequence, messageIDs: messageIDs,
            completion: completion)
        // Large appends are framed and compressed here, in parallel with the writer's commits.
        if payloads.count >= BlockEncoderPool.minimumEvents, kind == .value,
            payloads.allSatisfy({ $0.count <= options.maximumEventBytes })
        {
            request.encoded = encoders.encode(payloads)
        }
        submit(request, lead: lead)
    }
}
