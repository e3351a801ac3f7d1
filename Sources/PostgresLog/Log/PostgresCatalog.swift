import EventLog
import StreamModel

/// SQL over `streamd.streams`, on whichever connection it is given.
///
/// Thread-safety: stateless; callers own the connection.
enum PostgresCatalog {
    static let columns = """
        id, name, capacity, max_age_us, max_bytes, replay_kind, replay_arg, first_seq, last_seq, last_ts, stored_bytes,
        terminal_kind, created_us, dedup_events, dedup_age_us
        """

    static func load(_ name: String, on connection: PostgresConnection, locking: Bool = false) throws(EventLogError) -> StreamState? {
        let rows = try connection.execute(
            "SELECT \(columns) FROM streamd.streams WHERE name = $1\(locking ? " FOR UPDATE" : "")", [.text(name)])
        return rows.count == 0 ? nil : state(rows, 0)
    }

    /// The order in which a transaction locks the rows of several streams, whichever way it takes
    /// them (`loadStatement`, `moveStatement`), so that two writers locking the same streams cannot
    /// wait for each other: by the bytes of their names, as PostgreSQL's "C" collation orders them
    /// whatever the database's own.
    static func lockOrder(_ names: some Sequence<String>) -> [String] {
        Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The rows of `names`, by name; with `locking`, locked for this transaction in `lockOrder`.
    static func load(_ names: [String], on connection: PostgresConnection, locking: Bool) throws(EventLogError) -> [String: StreamState] {
        let (sql, parameters) = loadStatement(names, locking: locking)
        return states(try connection.execute(sql, parameters))
    }

    /// The statement `load(_:on:locking:)` runs; its rows end with each row's version (see `versions`).
    static func loadStatement(_ names: [String], locking: Bool) -> (sql: String, parameters: [PostgresValue]) {
        (
            "SELECT \(columns), \(version) FROM streamd.streams WHERE name = ANY($1) ORDER BY name COLLATE \"C\"\(locking ? " FOR UPDATE" : "")",
            [.textArray(names)]
        )
    }

    /// A stream row's version: the id of the transaction that wrote it last (its `xmin`), which every
    /// change to the row (an append, retention, truncation, a policy) replaces.
    static let version = "xmin::text::int8"

    /// The row versions of a `loadStatement`'s rows, by name.
    static func versions(_ rows: PostgresResult) -> [String: Int64] {
        let column = columns.split(separator: ",").count
        var found: [String: Int64] = [:]
        for row in 0..<rows.count { found[rows.text(row, 1)] = rows.int64(row, column) }
        return found
    }

    /// The rows of a `loadStatement`, by name.
    static func states(_ rows: PostgresResult) -> [String: StreamState] {
        var found: [String: StreamState] = [:]
        for row in 0..<rows.count {
            let state = state(rows, row)
            found[state.name] = state
        }
        return found
    }

    static func loadAll(on connection: PostgresConnection) throws(EventLogError) -> [StreamState] {
        let rows = try connection.execute("SELECT \(columns) FROM streamd.streams ORDER BY name")
        return (0..<rows.count).map { state(rows, $0) }
    }

    /// Inserts stream `name` unless it exists; returns its row either way, and whether it was made.
    static func ensure(_ name: String, policy: StreamPolicy, now: Int64, on connection: PostgresConnection) throws(EventLogError) -> (StreamState, Bool) {
        let inserted = try connection.execute(
            """
            INSERT INTO streamd.streams (name, capacity, max_age_us, max_bytes, replay_kind, replay_arg, dedup_events, dedup_age_us, created_us)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (name) DO NOTHING RETURNING \(columns)
            """,
            [.text(name)] + policyValues(policy) + [.int64(now)])
        if inserted.count == 1 { return (state(inserted, 0), true) }
        // Made by someone else meanwhile, or long ago.
        guard let existing = try load(name, on: connection) else {
            throw EventLogError(.postgres, "stream \"\(name)\" was deleted while it was being created; try again.", stream: name)
        }
        return (existing, false)
    }

    static func updatePolicy(_ state: StreamState, on connection: PostgresConnection) throws(EventLogError) {
        try connection.execute(
            """
            UPDATE streamd.streams SET capacity = $1, max_age_us = $2, max_bytes = $3, replay_kind = $4, replay_arg = $5,
                dedup_events = $6, dedup_age_us = $7 WHERE id = $8
            """,
            policyValues(state.policy) + [.int64(state.id)])
    }

    static func updatePositions(_ state: StreamState, on connection: PostgresConnection) throws(EventLogError) {
        try connection.execute(
            "UPDATE streamd.streams SET first_seq = $1, last_seq = $2, last_ts = $3, stored_bytes = $4, terminal_kind = $5 WHERE id = $6",
            [.int64(Int64(state.firstSequence)), .int64(Int64(state.lastSequence)), .int64(state.lastTimestamp), .int64(state.storedBytes),
             .int16(Int16(state.terminal)), .int64(state.id)])
    }

    /// The statement that commits an append to `state`'s stream: it writes the row's positions (the
    /// first retained sequence `first` among them), inserts `blocks` (the stream's new blocks) and,
    /// when `first` is past `from` (the first sequence before), deletes the blocks that end before it
    /// once it holds the row; the row's stored bytes are `state`'s less those of the deleted blocks.
    /// It returns the row's new version and stored bytes. One statement, so that the server runs one
    /// for a stream's commit.
    ///
    /// It writes the row only at version `version` and otherwise fails with `not_null_violation` (the
    /// last sequence then comes out NULL, which the column refuses), as it does when the row is gone
    /// (the blocks' stream is then NULL; see `PostgresBlocks.contendedState`): the writer numbers a
    /// batch from the row as it last wrote it and sends this without locking the row first, and
    /// PostgreSQL evaluates it on the row's newest version once it holds the row, so a writer that
    /// moved or deleted the row meanwhile is noticed here, before anything of the batch is stored. The
    /// blocks take their stream from the updated row, so they are inserted only once the row is held.
    static func moveStatement(
        _ state: StreamState, first: UInt64, from: UInt64, version: Int64, blocks: [PostgresBlocks.Row]
    ) -> (sql: String, parameters: [PostgresValue]) {
        let dropping = first > from
        // The row is held before any block is deleted, as every other writer of the stream holds it
        // first: an update's SET is worked out (the delete with it) before the update takes the row.
        let deletion =
            dropping
            ? """
            held AS (SELECT id FROM streamd.streams WHERE id = $1 FOR NO KEY UPDATE),
            gone AS (DELETE FROM streamd.blocks WHERE stream_id = (SELECT id FROM held) AND last_seq < $2 RETURNING length(payload) AS bytes),

            """ : ""
        let inserted = PostgresBlocks.source(blocks, stream: "(SELECT id FROM moved)", from: 8)
        return (
            """
            WITH \(deletion)moved AS (
                UPDATE streamd.streams SET first_seq = $2, last_seq = CASE WHEN \(self.version) = $7 THEN $3 END, last_ts = $4,
                    stored_bytes = $5\(dropping ? " - (SELECT coalesce(sum(bytes), 0) FROM gone)" : ""), terminal_kind = $6
                WHERE id = $1 RETURNING id, \(self.version) AS version, stored_bytes),
            added AS (
                INSERT INTO streamd.blocks (stream_id, \(PostgresBlocks.headerColumns), payload) \(inserted.sql))
            SELECT version, stored_bytes FROM moved
            """,
            [.int64(state.id), .int64(Int64(first)), .int64(Int64(state.lastSequence)), .int64(state.lastTimestamp), .int64(state.storedBytes),
             .int16(Int16(state.terminal)), .int64(version)] + inserted.parameters
        )
    }

    static func delete(_ state: StreamState, on connection: PostgresConnection) throws(EventLogError) {
        try connection.execute("DELETE FROM streamd.streams WHERE id = $1", [.int64(state.id)])
    }

    private static func policyValues(_ policy: StreamPolicy) -> [PostgresValue] {
        [.optional(policy.capacity.count.map { Int64($0) }), .optional(policy.maxAgeMicroseconds), .optional(policy.maxBytes.map { Int64(clamping: $0) }),
         .int16(Int16(policy.replay.kind)), .int64(policy.replay.argument),
         .optional(policy.deduplication?.events.map { Int64(clamping: $0) }), .optional(policy.deduplication?.durationMicroseconds)]
    }

    static func state(_ rows: PostgresResult, _ row: Int) -> StreamState {
        let replay = StartPosition(kind: UInt8(clamping: rows.int64(row, 5)), argument: rows.int64(row, 6)) ?? .all
        let policy = StreamPolicy(
            capacity: rows.optionalInt64(row, 2).map { .last(Int(clamping: max(1, $0))) } ?? .unlimited,
            maxAge: rows.optionalInt64(row, 3).map { .microseconds($0) },
            maxBytes: rows.optionalInt64(row, 4).map { UInt64(max(1, $0)) },
            replay: replay == .streamDefault ? .all : replay,
            deduplication: DeduplicationWindow(stored: rows.optionalInt64(row, 13), rows.optionalInt64(row, 14)))
        return StreamState(
            id: rows.int64(row, 0), name: rows.text(row, 1), policy: policy,
            firstSequence: UInt64(max(0, rows.int64(row, 7))), lastSequence: UInt64(max(0, rows.int64(row, 8))),
            lastTimestamp: rows.int64(row, 9), storedBytes: rows.int64(row, 10),
            terminal: UInt8(truncatingIfNeeded: rows.int64(row, 11)), created: rows.int64(row, 12))
    }
}
