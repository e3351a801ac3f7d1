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
/// carried, kept within its `DeduplicationWindow`. They are written in the transaction that stores
/// their events, so an acknowledged id survives whatever the events survive.
///
/// Thread-safety: stateless; callers own the connection.
enum MessageIDStore {
    // Built once: statements are cached by their text.
    private static let insertSQL = "INSERT OR REPLACE INTO message_ids (stream_id, message_id, sequence, timestamp) VALUES (?, ?, ?, ?)"
    private static let pruneSQL = "DELETE FROM message_ids WHERE stream_id = ? AND sequence <= ?"
    /// The first id young enough to keep: timestamps never decrease within a stream, so every id
    /// before it in sequence order is older, and walking the sequence index from the oldest stops there.
    private static let firstYoungSQL =
        "SELECT sequence FROM message_ids INDEXED BY message_ids_by_sequence WHERE stream_id = ? AND timestamp >= ? ORDER BY sequence LIMIT 1"

    /// Forgets the ids that fell out of `window` (with the stream ending at `lastSequence`, at `now`),
    /// then stores the ids of `appends` (a stream's accepted appends, in order). An id stored again
    /// (published anew once its first event left the window) replaces its old row; a journal replayed
    /// never stores an append twice, so it never replaces a row of its own.
    static func record(
        _ appends: some Sequence<(ids: [String?], first: UInt64, timestamp: Int64)>, streamID: Int64, lastSequence: UInt64,
        window: DeduplicationWindow, now: Int64, on connection: SQLiteConnection
    ) throws(EventLogError) {
        var pruned = false
        // A window of no events keeps no id: the prune below forgets what an earlier window kept.
        let keeps = window.events != 0
        for append in appends where !append.ids.isEmpty {
            // Once, before the first id goes in: a commit without ids costs this walk alone.
            if !pruned { try prune(streamID: streamID, window.cutoff(lastSequence: lastSequence, now: now), on: connection) }
            pruned = true
            for (offset, id) in append.ids.enumerated() where keeps {
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

    /// Forgets stream `streamID`'s ids at or below `cutoff.afterSequence` or older than
    /// `cutoff.sinceTimestamp`; the age costs a step per id it forgets, and one more.
    private static func prune(
        streamID: Int64, _ cutoff: (afterSequence: UInt64, sinceTimestamp: Int64), on connection: SQLiteConnection
    ) throws(EventLogError) {
        var upTo = Int64(clamping: cutoff.afterSequence)
        if cutoff.sinceTimestamp > Int64.min {
            let young = try connection.statement(firstYoungSQL)
            defer { young.reset() }
            young.bind(1, streamID)
            young.bind(2, cutoff.sinceTimestamp)
            upTo = max(upTo, try young.step() ? young.int64(0) - 1 : Int64.max)
        }
        guard upTo > 0 else { return }
        let prune = try connection.statement(pruneSQL)
        prune.bind(1, streamID)
        prune.bind(2, upTo)
        try prune.run()
    }

    /// The ids `state`'s stream keeps within `window` at `now`, oldest first; with `among`, only
    /// those of them (each looked up by its key); with `newest`, only the newest `limit`.
    static func remembered(
        by state: StreamState, window: DeduplicationWindow, now: Int64, among ids: [String]? = nil, newest limit: Int? = nil,
        on connection: SQLiteConnection
    ) throws(EventLogError) -> [StoredMessageID] {
        let cutoff = window.cutoff(lastSequence: state.lastSequence, now: now)
        let after = Int64(clamping: cutoff.afterSequence)
        var found: [StoredMessageID] = []
        func collect(_ statement: SQLiteStatement) throws(EventLogError) {
            defer { statement.reset() }
            while try statement.step() {
                found.append(StoredMessageID(id: statement.text(0), sequence: UInt64(max(0, statement.int64(1))), timestamp: statement.int64(2)))
            }
        }
        guard let ids else {
            let statement = try connection.statement(
                "SELECT message_id, sequence, timestamp FROM message_ids WHERE stream_id = ? AND sequence > ? AND timestamp >= ? ORDER BY sequence DESC LIMIT ?")
            statement.bind(1, state.id)
            statement.bind(2, after)
            statement.bind(3, cutoff.sinceTimestamp)
            statement.bind(4, Int64(limit ?? -1))
            try collect(statement)
            return found.reversed()
        }
        let statement = try connection.statement(
            "SELECT message_id, sequence, timestamp FROM message_ids WHERE stream_id = ? AND message_id = ? AND sequence > ? AND timestamp >= ?")
        for id in Set(ids) {
            statement.bind(1, state.id)
            statement.bind(2, id)
            statement.bind(3, after)
            statement.bind(4, cutoff.sinceTimestamp)
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
