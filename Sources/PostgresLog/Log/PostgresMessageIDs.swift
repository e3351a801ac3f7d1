import EventLog

/// SQL over `streamd.message_ids`: the ids appends carried, kept within their stream's
/// `DeduplicationWindow` (its policy's, or the last `EventLogOptions.deduplicationWindow` events). The writer reads a batch's ids under its streams' row
/// locks and writes the new ones in the transaction that stores their events, so two daemons never
/// both store one id, and an acknowledged id survives whatever its event survives.
///
/// Thread-safety: stateless; callers own the connection.
enum PostgresMessageIDs {
    /// An id to store: the stream, the id, and its event's sequence and timestamp.
    struct Row {
        var streamID: Int64
        var id: String
        var sequence: UInt64
        var timestamp: Int64
    }

    /// The condition an id `m` of stream `s` meets while it is within the stream's window: its
    /// `dedup_events` (when both columns are NULL, `defaultEvents`, a parameter) and its `dedup_age_us`
    /// before `now` (a parameter, microseconds).
    private static func withinWindow(defaultEvents: String, now: String) -> String {
        """
        m.sequence > s.last_seq - CASE WHEN s.dedup_events IS NOT NULL THEN s.dedup_events WHEN s.dedup_age_us IS NULL THEN \(defaultEvents) ELSE s.last_seq END
        AND (s.dedup_age_us IS NULL OR m.ts >= \(now) - s.dedup_age_us)
        """
    }

    /// The statement that finds which of `ids` the streams named `names` keep within their windows
    /// at `now`; read its rows with `found`.
    static func lookupStatement(names: [String], ids: [String], defaultEvents: Int, now: Int64) -> (sql: String, parameters: [PostgresValue]) {
        (
            """
            SELECT s.name, m.message_id, m.sequence, m.ts FROM streamd.message_ids m JOIN streamd.streams s ON s.id = m.stream_id
            WHERE s.name = ANY($1) AND m.message_id = ANY($2) AND \(withinWindow(defaultEvents: "$3", now: "$4"))
            """,
            [.textArray(names), .textArray(ids), .int64(Int64(defaultEvents)), .int64(now)]
        )
    }

    /// The rows of a `lookupStatement`, by stream name and id.
    static func found(_ rows: PostgresResult) -> [String: [String: StoredMessageID]] {
        var found: [String: [String: StoredMessageID]] = [:]
        for row in 0..<rows.count {
            let id = stored(rows, row, from: 1)
            found[rows.text(row, 0), default: [:]][id.id] = id
        }
        return found
    }

    /// The id, sequence and timestamp in columns `column`, `column + 1` and `column + 2` of `row`.
    private static func stored(_ rows: PostgresResult, _ row: Int, from column: Int) -> StoredMessageID {
        StoredMessageID(id: rows.text(row, column), sequence: UInt64(max(0, rows.int64(row, column + 1))), timestamp: rows.int64(row, column + 2))
    }

    /// The statements that forget, in each stream of `moved` whose appends carried ids (`carrying`),
    /// the ids that fell out of its window (`window(policy)`) at `now`, and then store `rows`. An id
    /// stored again (published anew once its first event left the window, so the lookup did not find
    /// it) replaces its old row.
    static func recordStatements(
        _ rows: [Row], carrying: Set<Int64>, moved: [StreamState], window: (StreamPolicy) -> DeduplicationWindow, now: Int64
    ) -> [(sql: String, parameters: [PostgresValue])] {
        guard !carrying.isEmpty else { return [] }
        let pruned = moved.filter { carrying.contains($0.id) }.map { state in
            (id: state.id, cutoff: window(state.policy).cutoff(lastSequence: state.lastSequence, now: now))
        }.filter { $0.cutoff.afterSequence > 0 || $0.cutoff.sinceTimestamp > Int64.min }
        var statements: [(sql: String, parameters: [PostgresValue])] = []
        if !pruned.isEmpty {
            // By age: timestamps never decrease within a stream, so every id before the first young
            // one in sequence order is old; the walk along the sequence index stops there, once per
            // stream (the cut is materialized before the delete uses it).
            statements.append((
                """
                WITH cut AS MATERIALIZED (
                    SELECT p.id, CASE WHEN p.since = \(Int64.min) THEN p.upto ELSE greatest(p.upto, coalesce(
                        (SELECT y.sequence - 1 FROM streamd.message_ids y WHERE y.stream_id = p.id AND y.ts >= p.since ORDER BY y.sequence LIMIT 1),
                        \(Int64.max))) END AS upto
                    FROM unnest($1::int8[], $2::int8[], $3::int8[]) AS p (id, upto, since))
                DELETE FROM streamd.message_ids m USING cut WHERE m.stream_id = cut.id AND m.sequence <= cut.upto
                """,
                [.int64Array(pruned.map(\.id)), .int64Array(pruned.map { Int64(clamping: $0.cutoff.afterSequence) }),
                 .int64Array(pruned.map(\.cutoff.sinceTimestamp))]
            ))
        }
        guard !rows.isEmpty else { return statements }
        statements.append((
            """
            INSERT INTO streamd.message_ids (stream_id, message_id, sequence, ts) SELECT * FROM unnest($1::int8[], $2::text[], $3::int8[], $4::int8[])
            ON CONFLICT (stream_id, message_id) DO UPDATE SET sequence = excluded.sequence, ts = excluded.ts
            """,
            [.int64Array(rows.map(\.streamID)), .textArray(rows.map(\.id)), .int64Array(rows.map { Int64($0.sequence) }), .int64Array(rows.map(\.timestamp))]
        ))
        return statements
    }

    /// The ids `stream` keeps within its window at `now`, oldest first; with `among`, only those of
    /// them; with `newest`, only the newest `limit`.
    static func remembered(
        by stream: String, defaultEvents: Int, now: Int64, among ids: [String]?, newest limit: Int?, on connection: PostgresConnection
    ) throws(EventLogError) -> [StoredMessageID] {
        let rows = try connection.execute(
            """
            SELECT m.message_id, m.sequence, m.ts FROM streamd.message_ids m JOIN streamd.streams s ON s.id = m.stream_id
            WHERE s.name = $1 AND \(withinWindow(defaultEvents: "$2", now: "$4"))
                AND ($3::text[] IS NULL OR m.message_id = ANY($3::text[])) ORDER BY m.sequence DESC LIMIT $5
            """,
            [.text(stream), .int64(Int64(defaultEvents)), ids.map { .textArray($0) } ?? .null, .int64(now), .optional(limit.map { Int64($0) })])
        return (0..<rows.count).reversed().map { stored(rows, $0, from: 0) }
    }
}

extension PostgresMessageIDs {
    /// Throws `duplicateMessageID` if `request` carries an id its stream keeps (`kept`, by id), naming
    /// the originals, and `invalidArgument` if it carries one id twice.
    static func check(_ request: AppendRequest, against kept: [String: StoredMessageID]) throws(EventLogError) {
        guard !request.messageIDs.isEmpty else { return }
        var duplicates: [Int: StoredMessageID] = [:]
        var seen = Set<String>()
        for (index, id) in request.messageIDs.enumerated() {
            guard let id else { continue }
            guard seen.insert(id).inserted else {
                throw EventLogError(
                    .invalidArgument, "an append carried message id \"\(id)\" twice; give each event its own id.", stream: request.stream)
            }
            if let original = kept[id] { duplicates[index] = original }
        }
        guard let (index, first) = duplicates.min(by: { $0.key < $1.key }) else { return }
        var error = EventLogError(
            .duplicateMessageID,
            "event \(index + 1) of the append carries message id \"\(first.id)\", which stream \"\(request.stream)\" stored as sequence \(first.sequence); nothing was stored.",
            stream: request.stream)
        error.duplicates = duplicates
        throw error
    }
}
