/// SQL over the `blocks` table, on whichever connection it is given.
///
/// Blocks are keyed by `block_key` = stream id × 2^43 + last sequence, so every query here is a range
/// of that key: a seek in the table itself.
/// Thread-safety: stateless; callers own the connection.
enum BlockStore {
    static let headerColumns = "first_seq, last_seq, first_ts, last_ts, count, codec, raw_size, crc32"

    /// How many keys each stream has (2^43): stream id × this + last sequence is a block's key. SQL
    /// that computes keys interpolates it.
    static let keysPerStream: Int64 = 1 << 43
    /// The largest sequence a stream can reach, and one more than the largest stream id.
    static let maximumSequence = UInt64(keysPerStream - 1)
    static let streamIDLimit: Int64 = 1 << 20

    /// The key of the block of `streamID` ending at `sequence` (clamped to the stream's key range).
    static func key(_ streamID: Int64, _ sequence: UInt64) -> Int64 {
        streamID * keysPerStream + Int64(min(sequence, maximumSequence))
    }

    // Built once: statements are cached by their text, and a commit should not build the text anew.
    private static let insertSQL =
        "INSERT INTO blocks (block_key, stream_id, \(headerColumns), payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    static func insert(
        streamID: Int64, header: BlockHeader, payload: UnsafeRawBufferPointer, on connection: SQLiteConnection
    ) throws(EventLogError) {
        let statement = try connection.statement(insertSQL)
        statement.bind(1, key(streamID, header.lastSequence))
        statement.bind(2, streamID)
        statement.bind(3, Int64(header.firstSequence))
        statement.bind(4, Int64(header.lastSequence))
        statement.bind(5, header.firstTimestamp)
        statement.bind(6, header.lastTimestamp)
        statement.bind(7, Int64(header.count))
        statement.bind(8, header.codec.rawValue)
        statement.bind(9, Int64(header.rawSize))
        statement.bind(10, Int64(header.crc))
        statement.bindStatic(11, payload)
        try statement.run()
    }

    /// Reads a header from columns `offset...offset+7` of the current row; nil when a column is impossible.
    static func header(_ statement: SQLiteStatement, at offset: Int32) -> BlockHeader? {
        BlockHeader { statement.int64(offset + Int32($0)) }
    }

    /// The query `blocks(of:atOrAfter:limit:on:_:)` runs.
    static let blocksOfStreamSQL = """
        SELECT \(headerColumns), payload FROM blocks WHERE block_key BETWEEN ?1 AND ?2
            AND EXISTS (SELECT 1 FROM streams WHERE id = ?4 AND name = ?5 AND created_us = ?6)
        ORDER BY block_key LIMIT ?3
        """

    /// Calls `body` with up to `limit` blocks of `stream` whose last sequence is ≥ `sequence`, in
    /// order; returns how many rows it saw. Each call is its own read snapshot, and sees no block once
    /// the stream has been deleted.
    static func blocks(
        of stream: StreamState, atOrAfter sequence: UInt64, limit: Int, on connection: SQLiteConnection,
        _ body: (BlockHeader?, UnsafeRawBufferPointer, _ rowFirst: Int64, _ rowLast: Int64) throws -> Bool
    ) throws -> Int {
        // Stream ids are reused: a reader paging through a stream that was deleted meanwhile would go on
        // into the blocks of the next stream given its id, so each page checks, in its own snapshot,
        // that the id still names the same stream (one primary-key lookup per page).
        let statement = try connection.statement(blocksOfStreamSQL)
        defer { statement.reset() }
        statement.bind(1, key(stream.id, sequence))
        statement.bind(2, key(stream.id, maximumSequence))
        statement.bind(3, Int64(limit))
        statement.bind(4, stream.id)
        statement.bind(5, stream.name)
        statement.bind(6, stream.created)
        var rows = 0
        while try statement.step() {
            rows += 1
            if try !body(header(statement, at: 0), statement.blob(8), statement.int64(0), statement.int64(1)) { break }
        }
        return rows
    }

    private static let firstBlockSQL =
        "SELECT \(headerColumns), payload FROM blocks WHERE block_key BETWEEN ? AND ? ORDER BY block_key LIMIT 1"

    /// The first retained-or-not sequence whose timestamp is ≥ `time`, or `lastSequence + 1` if none
    /// (see `TimeSearch`).
    static func firstSequence(
        streamID: Int64, atOrAfter time: Int64, lastSequence: UInt64, decoder: BlockDecoder, on connection: SQLiteConnection
    ) throws -> UInt64 {
        let statement = try connection.statement(firstBlockSQL)
        defer { statement.reset() }
        return try TimeSearch.firstSequence(atOrAfter: time, lastSequence: lastSequence, decoder: decoder) { sequence, body in
            statement.reset()
            statement.bind(1, key(streamID, sequence))
            statement.bind(2, key(streamID, maximumSequence))
            guard try statement.step() else { return }
            guard let header = header(statement, at: 0) else {
                throw EventLogError(.corruptBlock, "a stored block has impossible header columns; run verify.")
            }
            try body(header, statement.blob(8))
        }
    }

    /// Deletes the stream's blocks that end before `sequence`; returns their stored bytes.
    static func deleteBlocks(streamID: Int64, before sequence: UInt64, on connection: SQLiteConnection) throws(EventLogError) -> Int64 {
        guard sequence > 0 else { return 0 }
        // An inclusive bound: `key` clamps, so "before maximumSequence + 1" must still reach the block ending there.
        let sum = try connection.statement(
            "SELECT coalesce(sum(length(payload)), 0) FROM blocks WHERE block_key BETWEEN ? AND ?")
        sum.bind(1, key(streamID, 0))
        sum.bind(2, key(streamID, sequence - 1))
        let bytes = try sum.step() ? sum.int64(0) : 0
        sum.reset()
        guard bytes > 0 else { return 0 }
        let delete = try connection.statement("DELETE FROM blocks WHERE block_key BETWEEN ? AND ?")
        delete.bind(1, key(streamID, 0))
        delete.bind(2, key(streamID, sequence - 1))
        try delete.run()
        return bytes
    }

    /// The oldest blocks' last sequences and stored sizes, oldest first.
    static func oldest(streamID: Int64, limit: Int, on connection: SQLiteConnection) throws(EventLogError) -> [(last: UInt64, bytes: Int64)] {
        let statement = try connection.statement(
            "SELECT last_seq, length(payload) FROM blocks WHERE block_key BETWEEN ? AND ? ORDER BY block_key LIMIT ?")
        defer { statement.reset() }
        statement.bind(1, key(streamID, 0))
        statement.bind(2, key(streamID, maximumSequence))
        statement.bind(3, Int64(limit))
        var result: [(last: UInt64, bytes: Int64)] = []
        while try statement.step() { result.append((UInt64(max(0, statement.int64(0))), statement.int64(1))) }
        return result
    }
}
