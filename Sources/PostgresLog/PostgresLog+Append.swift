import EventLog

extension PostgresLog {
    /// Appends one event and returns its sequence and timestamp once PostgreSQL committed it.
    ///
    /// - Throws: `streamNotFound`, `streamEnded`, `invalidArgument` (too large), `readOnly` (a
    ///   standby), `unavailable` (the server went away: see its message), `closed`, `postgres`.
    @discardableResult
    public func append(_ payload: [UInt8], to stream: String) throws -> AppendReceipt {
        try waitForCompletion { append(contentsOf: [payload], to: stream, completion: $0) }
    }

    /// Appends `payloads` as consecutive events, committed together (all or none).
    @discardableResult
    public func append(contentsOf payloads: [[UInt8]], to stream: String) throws -> AppendReceipt {
        try waitForCompletion { append(contentsOf: payloads, to: stream, completion: $0) }
    }

    /// Stores the stream's completion; the stream accepts nothing after it.
    @discardableResult
    public func appendCompleted(to stream: String) throws -> AppendReceipt {
        try waitForCompletion { submit(AppendRequest(stream: stream, kind: .completed, payloads: [[]], completion: $0)) }
    }

    /// Stores the stream's failure with `message`; the stream accepts nothing after it.
    @discardableResult
    public func appendFailed(to stream: String, message: String) throws -> AppendReceipt {
        try waitForCompletion { submit(AppendRequest(stream: stream, kind: .failed, payloads: [Array(message.utf8)], completion: $0)) }
    }

    /// Appends `payloads`, all of `kind`, with their `messageIDs` (one per payload, or none), if no id
    /// is one the stream keeps and `stream` ends at `expectedLastSequence` (any sequence when nil),
    /// both checked under its row lock, and returns once PostgreSQL committed them. Otherwise throws
    /// `duplicateMessageID` (naming the originals) or `wrongLastSequence`, and stores nothing. Both
    /// hold across every process sharing the database.
    package func append(
        _ kind: LogEvent.Kind, _ payloads: [[UInt8]], messageIDs: [String?], to stream: String,
        expectingLastSequence expectedLastSequence: UInt64?
    ) throws -> AppendReceipt {
        try waitForCompletion {
            submit(AppendRequest(
                stream: stream, kind: kind, payloads: payloads, expectedLastSequence: expectedLastSequence, messageIDs: messageIDs, completion: $0))
        }
    }

    /// True: every daemon sharing the database stores ids, so the writer checks them in the database.
    package var checksMessageIDs: Bool { true }

    /// The message ids `stream` keeps within its de-duplication window now, oldest first.
    package func rememberedMessageIDs(of stream: String, among ids: [String]?, newest limit: Int?) throws -> [StoredMessageID] {
        try pool.withConnection { connection in
            try PostgresMessageIDs.remembered(
                by: stream, defaultEvents: options.deduplicationWindow, now: options.clock(), among: ids, newest: limit, on: connection)
        }
    }

    /// Appends `payloads` and calls `completion` on the writer thread after the commit (or the
    /// failure); `completion` must be short and must not wait for another append.
    public func append(
        contentsOf payloads: [[UInt8]], to stream: String, completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        guard !payloads.isEmpty else {
            completion(.failure(EventLogError(.invalidArgument, "an append needs at least one event; the batch was empty.", stream: stream)))
            return
        }
        submit(AppendRequest(stream: stream, kind: .value, payloads: payloads, completion: completion))
    }

    private func submit(_ request: AppendRequest) {
        guard queue.push(request) else {
            request.completion(.failure(closedError().naming(stream: request.stream)))
            return
        }
    }
}
