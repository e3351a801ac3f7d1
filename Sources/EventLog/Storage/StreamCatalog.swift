/// A stream's catalog row as the writer and readers use it.
package struct StreamState: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var policy: StreamPolicy
    package var firstSequence: UInt64
    package var lastSequence: UInt64
    package var lastTimestamp: Int64
    package var storedBytes: Int64
    package var terminal: UInt8
    /// When the stream was created, in microseconds: tells one life of a name from the next.
    package var created: Int64

    /// The row as `StreamInfo`, without what only the blocks tell (`firstTime`, `rawBytes`: see
    /// `EventLog.describe`).
    package var info: StreamInfo {
        // A damaged catalog row may have first > last + 1; count that as empty rather than trap.
        let count = lastSequence >= firstSequence ? lastSequence - firstSequence + 1 : 0
        return StreamInfo(
            name: name, policy: policy, count: count, firstSequence: count == 0 ? lastSequence + 1 : firstSequence,
            lastSequence: lastSequence, lastTime: lastTimestamp, storedBytes: UInt64(max(0, storedBytes)),
            state: StreamInfo.State(rawValue: terminal) ?? .open)
    }

    /// Whether the stream stored its completion or failure.
    package var hasEnded: Bool { terminal != 0 }

    package init(
        id: Int64, name: String, policy: StreamPolicy, firstSequence: UInt64, lastSequence: UInt64, lastTimestamp: Int64,
        storedBytes: Int64, terminal: UInt8, created: Int64
    ) {
        self.id = id
        self.name = name
        self.policy = policy
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.lastTimestamp = lastTimestamp
        self.storedBytes = storedBytes
        self.terminal = terminal
        self.created = created
    }

}

/// SQL over the `streams` table, on whichever connection it is given.
///
/// Thread-safety: stateless; callers own the connection.
enum StreamCatalog {
    /// The row's columns, then three over the blocks committed after the row's positions were last
    /// written (appends write them only every so many blocks, see `LogWriter.unsavedBlockLimit`):
    /// their last sequence, last timestamp and stored bytes. One statement, so one read snapshot.
    /// Retention and terminal events always write the row, so these blocks only extend the stream.
    static let columns = """
        id, name, capacity, max_age_us, max_bytes, replay_kind, replay_arg, first_seq, last_seq, last_ts, stored_bytes,
        terminal_kind, created_us, dedup_events, dedup_age_us, \(unsaved("max(last_seq)")), \(unsaved("max(last_ts)")), \(unsaved("sum(length(payload))"))
        """

    private static func unsaved(_ aggregate: String) -> String {
        let base = BlockStore.keysPerStream
        return "(SELECT \(aggregate) FROM blocks WHERE block_key BETWEEN streams.id * \(base) + streams.last_seq + 1 AND streams.id * \(base) + \(base - 1))"
    }

    static func load(_ name: String, on connection: SQLiteConnection) throws(EventLogError) -> StreamState? {
        let statement = try connection.statement("SELECT \(columns) FROM streams WHERE name = ?")
        defer { statement.reset() }
        statement.bind(1, name)
        return try statement.step() ? row(statement) : nil
    }

    static func loadAll(on connection: SQLiteConnection) throws(EventLogError) -> [StreamState] {
        try load("SELECT \(columns) FROM streams ORDER BY name", on: connection)
    }

    /// The streams with a maximum age, the only ones retention can trim without an append.
    static func loadAgeLimited(on connection: SQLiteConnection) throws(EventLogError) -> [StreamState] {
        try load("SELECT \(columns) FROM streams WHERE max_age_us IS NOT NULL ORDER BY name", on: connection)
    }

    private static func load(_ sql: String, on connection: SQLiteConnection) throws(EventLogError) -> [StreamState] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        var result: [StreamState] = []
        while try statement.step() { result.append(row(statement)) }
        return result
    }

    /// Inserts the catalog row of a new stream under `id` (the writer's smallest free id, see
    /// `FreeStreamIDs`; nil when every id below `BlockStore.streamIDLimit` is taken).
    static func insert(_ name: String, id: Int64?, policy: StreamPolicy, now: Int64, on connection: SQLiteConnection) throws(EventLogError) -> StreamState {
        // Block keys hold the stream id in their top 20 bits: this means a million streams at once.
        guard let id, id < BlockStore.streamIDLimit else {
            throw EventLogError(
                .invalidArgument,
                "stream \"\(name)\" cannot be created: all \(BlockStore.streamIDLimit - 1) stream ids this log supports are taken; delete streams you no longer need.",
                path: connection.path, stream: name)
        }
        let statement = try connection.statement(
            """
            INSERT INTO streams (id, name, capacity, max_age_us, max_bytes, replay_kind, replay_arg, dedup_events, dedup_age_us, created_us)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        statement.bind(1, id)
        statement.bind(2, name)
        bindPolicy(policy, statement, from: 3)
        statement.bind(10, now)
        try statement.run()
        return StreamState(
            id: id, name: name, policy: policy, firstSequence: 1, lastSequence: 0,
            lastTimestamp: 0, storedBytes: 0, terminal: 0, created: now)
    }

    static func updatePolicy(_ state: StreamState, on connection: SQLiteConnection) throws(EventLogError) {
        let statement = try connection.statement(
            "UPDATE streams SET capacity = ?, max_age_us = ?, max_bytes = ?, replay_kind = ?, replay_arg = ?, dedup_events = ?, dedup_age_us = ? WHERE id = ?")
        bindPolicy(state.policy, statement, from: 1)
        statement.bind(8, state.id)
        try statement.run()
    }

    static func updatePositions(_ state: StreamState, on connection: SQLiteConnection) throws(EventLogError) {
        let statement = try connection.statement(
            "UPDATE streams SET first_seq = ?, last_seq = ?, last_ts = ?, stored_bytes = ?, terminal_kind = ? WHERE id = ?")
        statement.bind(1, Int64(state.firstSequence))
        statement.bind(2, Int64(state.lastSequence))
        statement.bind(3, state.lastTimestamp)
        statement.bind(4, state.storedBytes)
        statement.bind(5, Int64(state.terminal))
        statement.bind(6, state.id)
        try statement.run()
    }

    static func delete(_ state: StreamState, on connection: SQLiteConnection) throws(EventLogError) {
        let blocks = try connection.statement("DELETE FROM blocks WHERE block_key BETWEEN ? AND ?")
        blocks.bind(1, BlockStore.key(state.id, 0))
        blocks.bind(2, BlockStore.key(state.id, BlockStore.maximumSequence))
        try blocks.run()
        try MessageIDStore.forget(streamID: state.id, on: connection)
        try ConsumerStore.forget(streamID: state.id, on: connection)
        let stream = try connection.statement("DELETE FROM streams WHERE id = ?")
        stream.bind(1, state.id)
        try stream.run()
    }

    private static func bindPolicy(_ policy: StreamPolicy, _ statement: SQLiteStatement, from index: Int32) {
        statement.bind(index, policy.capacity.count.map { Int64($0) })
        statement.bind(index + 1, policy.maxAgeMicroseconds)
        statement.bind(index + 2, policy.maxBytes.map { Int64(clamping: $0) })
        statement.bind(index + 3, Int64(policy.replay.kind))
        statement.bind(index + 4, policy.replay.argument)
        statement.bind(index + 5, policy.deduplication?.events.map { Int64(clamping: $0) })
        statement.bind(index + 6, policy.deduplication?.durationMicroseconds)
    }

    private static func row(_ statement: SQLiteStatement) -> StreamState {
        let replay = StartPosition(kind: UInt8(clamping: statement.int64(5)), argument: statement.int64(6)) ?? .all
        let policy = StreamPolicy(
            capacity: statement.optionalInt64(2).map { .last(Int(clamping: max(1, $0))) } ?? .unlimited,
            maxAge: statement.optionalInt64(3).map { .microseconds($0) },
            maxBytes: statement.optionalInt64(4).map { UInt64(max(1, $0)) },
            replay: replay == .streamDefault ? .all : replay,
            deduplication: DeduplicationWindow(stored: statement.optionalInt64(13), statement.optionalInt64(14)))
        var state = StreamState(
            id: statement.int64(0), name: statement.text(1), policy: policy,
            firstSequence: UInt64(max(0, statement.int64(7))), lastSequence: UInt64(max(0, statement.int64(8))),
            lastTimestamp: statement.int64(9), storedBytes: statement.int64(10),
            terminal: UInt8(truncatingIfNeeded: statement.int64(11)), created: statement.int64(12))
        if let last = statement.optionalInt64(15) {
            state.lastSequence = UInt64(max(0, last))
            state.lastTimestamp = max(state.lastTimestamp, statement.int64(16))
            state.storedBytes += statement.int64(17)
        }
        return state
    }
}
