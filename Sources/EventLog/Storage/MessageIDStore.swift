/// A message id a stream stored with one of its events, and the sequence and timestamp that event got:
/// a publish retried with the id is answered with these instead of being stored again.
///
/// Values are immutable and Sendable.
package struct StoredMessageID: Sendable, Equatable {
    package let id: String
    package let sequence: UInt64
    package let timestamp: Int64

    package init(id: String, sequence: UInt64, timestamp: Int64) {
        self.id = id
        self.sequence = sequence
        self.timestamp = timestamp
    }
}

/// SQL over the `message_ids` table, on whichever connection it is given: the ids a stream's appends
/// carried, kept for its last `EventLogOptions.deduplicationWindow` events. They are written in the
/// transaction that stores their events, so an acknowledged id survives whatever the events survive.
///
/// Thread-safety: stateless; callers own the connection.
enum MessageIDStore {
    // Built once: statements are cached by their text.
    private static let insertSQL = "INSERT OR REPLACE INTO message_ids (stream_id, message_id, sequence, timestamp) VALUES (?, ?, ?, ?)"
    private static let pruneSQL = "DELETE FROM message_ids WHERE stream_id = ? AND sequence <= ?"

    /// Forgets the ids of events that fell out of the last `window` before `lastSequence`, then stores
    /// the ids of `appends` (a stream's accepted appends, in order). An id stored again (published
    /// anew once its first event left the window) replaces its old row; a journal replayed never
    /// stores an append twice, so it never replaces a row of its own.
    static func record(
        _ appends: some Sequence<(ids: [String?], first: UInt64, timestamp: Int64)>, streamID: Int64, lastSequence: UInt64, window: Int,
        on connection: SQLiteConnection
    ) throws(EventLogError) {
        var pruned = false
        for append in appends where !append.ids.isEmpty {
            // Once, before the first id goes in: a commit without ids costs this walk alone.
            if !pruned, lastSequence > UInt64(window) {
                let prune = try connection.statement(pruneSQL)
                prune.bind(1, streamID)
                prune.bind(2, Int64(lastSequence - UInt64(window)))
                try prune.run()
            }
            pruned = true
            for (offset, id) in append.ids.enumerated() {
                guard let id else { continue }
                let statement = try connection.statement(insertSQL)
                statement.bind(1, streamID)
                statement.bind(2, id)
                statement.bind(3, Int64(append.first + UInt64(offset)))
                statement.bind(4, append.timestamp)
                try statement.run()
            }
        }
    }

    /// The ids `state`'s stream stored among its last `window` events, oldest first; with `among`,
    /// only those of them (each looked up by its key).
    static func remembered(
        by state: StreamState, window: Int, among ids: [String]? = nil, on connection: SQLiteConnection
    ) throws(EventLogError) -> [StoredMessageID] {
        let after = Int64(state.lastSequence > UInt64(window) ? state.lastSequence - UInt64(window) : 0)
        var found: [StoredMessageID] = []
        func collect(_ statement: SQLiteStatement) throws(EventLogError) {
            defer { statement.reset() }
            while try statement.step() {
                found.append(StoredMessageID(id: statement.text(0), sequence: UInt64(max(0, statement.int64(1))), timestamp: statement.int64(2)))
            }
        }
        guard let ids else {
            let statement = try connection.statement(
                "SELECT message_id, sequence, timestamp FROM message_ids WHERE stream_id = ? AND sequence > ? ORDER BY sequence")
            statement.bind(1, state.id)
            statement.bind(2, after)
            try collect(statement)
            return found
        }
        let statement = try connection.statement(
            "SELECT message_id, sequence, timestamp FROM message_ids WHERE stream_id = ? AND message_id = ? AND sequence > ?")
        for id in Set(ids) {
            statement.bind(1, state.id)
            statement.bind(2, id)
            statement.bind(3, after)
            try collect(statement)
        }
        return found.sorted { $0.sequence < $1.sequence }
    }

    /// Forgets every id of stream `id` (deleted: its id may be given to a new stream).
    static func forget(streamID id: Int64, on connection: SQLiteConnection) throws(EventLogError) {
        let statement = try connection.statement("DELETE FROM message_ids WHERE stream_id = ?")
        statement.bind(1, id)
        try statement.run()
    }
}
