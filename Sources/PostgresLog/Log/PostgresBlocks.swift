import EventLog

/// SQL over `streamd.blocks`, on whichever connection it is given.
///
/// Thread-safety: stateless; callers own the connection.
enum PostgresBlocks {
    static let headerColumns = "first_seq, last_seq, first_ts, last_ts, count, codec, raw_size, crc32"

    /// A block to insert: its stream, its header and its stored bytes.
    struct Row {
        var streamID: Int64
        var header: BlockHeader
        var bytes: [UInt8]
    }

    /// The SQLSTATE by which a batch numbered from rows the writer did not lock first finds that
    /// another writer moved or deleted one meanwhile: `not_null_violation`, from the row's update or
    /// the blocks' insert (`PostgresCatalog.moveStatement`).
    static let contendedState = "23502"

    /// Inserts `rows` in one statement, once the rows of their streams are locked.
    static func insert(_ rows: [Row], on connection: PostgresConnection) throws(EventLogError) {
        guard !rows.isEmpty else { return }
        try connection.execute(
            "INSERT INTO streamd.blocks (stream_id, \(headerColumns), payload) SELECT * FROM unnest($1::int8[], \(columns(from: 2)))",
            [.int64Array(rows.map(\.streamID))] + values(rows))
    }

    /// The arrays of `values(_:)` as parameters `$first` on, for `unnest`: a block's header columns
    /// and payload, one row of `unnest` per block.
    static func columns(from first: Int) -> String {
        (first..<first + 8).map { "$\($0)::int8[]" }.joined(separator: ", ") + ", $\(first + 8)::bytea[]"
    }

    /// `rows` as the source of an insert of their header columns and payload after `stream` (an
    /// expression for their stream's id), the values as parameters `$first` on: one row of values for
    /// one block (a commit's usual lot, which the server inserts for less than `unnest` of arrays) and
    /// `unnest` of the arrays `columns(from:)` names for more.
    static func source(_ rows: [Row], stream: String, from first: Int) -> (sql: String, parameters: [PostgresValue]) {
        guard rows.count == 1, let row = rows.first else {
            return ("SELECT \(stream), * FROM unnest(\(columns(from: first)))", values(rows))
        }
        let header = row.header
        return (
            "VALUES (\(stream), " + (first..<first + 8).map { "$\($0)::int8" }.joined(separator: ", ") + ", $\(first + 8)::bytea)",
            [
                .int64(Int64(header.firstSequence)), .int64(Int64(header.lastSequence)), .int64(header.firstTimestamp), .int64(header.lastTimestamp),
                .int64(Int64(header.count)), .int64(header.codec.rawValue), .int64(Int64(header.rawSize)), .int64(Int64(header.crc)), .bytes(row.bytes),
            ]
        )
    }

    /// The header columns and payloads of `rows`, as the arrays `columns(from:)` names.
    static func values(_ rows: [Row]) -> [PostgresValue] {
        [
            .int64Array(rows.map { Int64($0.header.firstSequence) }), .int64Array(rows.map { Int64($0.header.lastSequence) }),
            .int64Array(rows.map(\.header.firstTimestamp)), .int64Array(rows.map(\.header.lastTimestamp)),
            .int64Array(rows.map { Int64($0.header.count) }), .int64Array(rows.map(\.header.codec.rawValue)),
            .int64Array(rows.map { Int64($0.header.rawSize) }), .int64Array(rows.map { Int64($0.header.crc) }),
            .bytesArray(rows.map(\.bytes)),
        ]
    }

    /// Calls `body` with up to `limit` blocks of stream `streamID` whose last sequence is ≥
    /// `sequence`, in order, until it returns false; returns how many rows the page held.
    static func blocks(
        of streamID: Int64, atOrAfter sequence: UInt64, limit: Int, on connection: PostgresConnection,
        _ body: (BlockHeader?, UnsafeRawBufferPointer, _ rowFirst: Int64, _ rowLast: Int64) throws -> Bool
    ) throws -> Int {
        let rows = try connection.execute(
            "SELECT \(headerColumns), payload FROM streamd.blocks WHERE stream_id = $1 AND last_seq >= $2 ORDER BY last_seq LIMIT $3",
            [.int64(streamID), .int64(Int64(clamping: sequence)), .int64(Int64(limit))])
        for row in 0..<rows.count {
            if try !body(header(rows, row), rows.bytes(row, 8), rows.int64(row, 0), rows.int64(row, 1)) { break }
        }
        return rows.count
    }

    /// The blocks of the stream named `name` (and, when `id` is given, of that life of it) that hold
    /// sequences from `sequence` (or the stream's first retained one, if later) up to `sequence + span
    /// - 1`, in order: at most `limit` of them, and no more than `bytes` of payload (the first block
    /// always); with the stream's id and first retained sequence, and whether limit or bytes cut the
    /// page short. Nil when there is no such stream. A stream's blocks follow one another without a
    /// gap, so they are those from the block holding the first sequence to the one holding the last:
    /// two seeks on the key. The running byte count and the count that tells a cut page are taken over
    /// the first `limit + 1` of those blocks only, so a page costs its own blocks however long the span
    /// (a span of small commits once scanned every block in it for each page). One query: the stream's
    /// row and its blocks in one snapshot. Read the
    /// blocks with `header(_:_:)` and `bytes(_, 8)`; a stream with no block to read there is one row
    /// of NULLs.
    static func page(
        of name: String, id: Int64?, from sequence: UInt64, span: UInt64, limit: Int, bytes: Int, on connection: PostgresConnection
    ) throws(EventLogError) -> (id: Int64, firstRetained: UInt64, blocks: PostgresResult, cut: Bool)? {
        let rows = try connection.execute(
            """
            SELECT b.first_seq, b.last_seq, b.first_ts, b.last_ts, b.count, b.codec, b.raw_size, b.crc32, b.payload, s.first_seq, s.id, b.total
            FROM streamd.streams s LEFT JOIN LATERAL (
                SELECT * FROM (
                    SELECT k.*, sum(octet_length(k.payload)) OVER (ORDER BY k.last_seq) - octet_length(k.payload) AS before_bytes,
                        count(*) OVER () AS total, row_number() OVER (ORDER BY k.last_seq) AS n
                    FROM (
                        SELECT * FROM streamd.blocks WHERE stream_id = s.id AND last_seq >= greatest($2, s.first_seq) AND last_seq <= coalesce(
                            (SELECT last_seq FROM streamd.blocks WHERE stream_id = s.id AND last_seq >= greatest($2, s.first_seq) + $3 - 1 ORDER BY last_seq LIMIT 1),
                            9223372036854775807)
                        ORDER BY last_seq LIMIT $5 + 1
                    ) k
                ) w WHERE w.before_bytes < $6 AND w.n <= $5
            ) b ON true
            WHERE s.name = $1 AND ($4::int8 IS NULL OR s.id = $4) ORDER BY b.last_seq
            """,
            // Clamped far below the overflow of sequence + span: no stream gets near 2^62.
            [.text(name), .int64(Int64(min(sequence, 1 << 62))), .int64(Int64(min(span, 1 << 32))), id.map(PostgresValue.int64) ?? .null,
             .int64(Int64(limit)), .int64(Int64(bytes))])
        guard rows.count > 0 else { return nil }
        let cut = !rows.isNull(0, 0) && Int64(rows.count) < rows.int64(0, 11)
        return (rows.int64(0, 10), UInt64(max(0, rows.int64(0, 9))), rows, cut)
    }

    /// Deletes the blocks of stream `streamID` that end before `sequence`; returns their stored bytes.
    static func deleteBlocks(streamID: Int64, before sequence: UInt64, on connection: PostgresConnection) throws(EventLogError) -> Int64 {
        let rows = try connection.execute(
            "WITH gone AS (DELETE FROM streamd.blocks WHERE stream_id = $1 AND last_seq < $2 RETURNING length(payload) AS bytes) SELECT coalesce(sum(bytes), 0)::int8 FROM gone",
            [.int64(streamID), .int64(Int64(clamping: sequence))])
        return rows.int64(0, 0)
    }

    /// The last sequence and stored bytes of the oldest `limit` blocks of stream `streamID`.
    static func oldest(streamID: Int64, limit: Int, on connection: PostgresConnection) throws(EventLogError) -> [(last: UInt64, bytes: Int64)] {
        let rows = try connection.execute(
            "SELECT last_seq, length(payload)::int8 FROM streamd.blocks WHERE stream_id = $1 ORDER BY last_seq LIMIT $2",
            [.int64(streamID), .int64(Int64(limit))])
        return (0..<rows.count).map { (UInt64(max(0, rows.int64($0, 0))), rows.int64($0, 1)) }
    }

    /// The first sequence whose timestamp is ≥ `time`, or `lastSequence + 1` if none (see `TimeSearch`).
    static func firstSequence(
        streamID: Int64, atOrAfter time: Int64, lastSequence: UInt64, decoder: BlockDecoder, on connection: PostgresConnection
    ) throws -> UInt64 {
        try TimeSearch.firstSequence(atOrAfter: time, lastSequence: lastSequence, decoder: decoder) { sequence, body in
            let rows = try connection.execute(
                "SELECT \(headerColumns), payload FROM streamd.blocks WHERE stream_id = $1 AND last_seq >= $2 ORDER BY last_seq LIMIT 1",
                [.int64(streamID), .int64(Int64(clamping: sequence))])
            guard rows.count == 1 else { return }
            guard let header = header(rows, 0) else {
                throw EventLogError(.corruptBlock, "a stored block has impossible header columns; run verify.")
            }
            try body(header, rows.bytes(0, 8))
        }
    }

    /// The header columns of row `row`, or nil when they are impossible (a damaged row).
    static func header(_ rows: PostgresResult, _ row: Int) -> BlockHeader? {
        BlockHeader { rows.int64(row, $0) }
    }
}
