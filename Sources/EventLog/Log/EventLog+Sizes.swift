/// How much a stream's blocks take, compressed and not.
///
/// Values are immutable and Sendable.
public struct StorageFigures: Sendable, Hashable {
    /// Stored blocks.
    public let blocks: UInt64
    /// The blocks' bytes as stored (after compression).
    public let storedBytes: UInt64
    /// The blocks' bytes before compression: the payloads plus a few bytes of framing per event.
    public let rawBytes: UInt64

    package init(blocks: UInt64, storedBytes: UInt64, rawBytes: UInt64) {
        self.blocks = blocks
        self.storedBytes = storedBytes
        self.rawBytes = rawBytes
    }
}

extension EventLog {
    /// The block count and the stored and uncompressed sizes of `stream` (every stream when nil).
    ///
    /// Reads only block headers (never the payloads), so it costs one range scan of the stream's blocks.
    /// A stream that does not exist has no blocks: all zeros. Blocks that retention made partly
    /// unreadable still count until they are dropped.
    public func storageFigures(of stream: String? = nil) throws -> StorageFigures {
        try storageFigures(of: stream, catalog: false)
    }

    /// `storageFigures`, for a `catalog` lookup too (see `ReaderPool.catchUp`).
    func storageFigures(of stream: String?, catalog: Bool) throws -> StorageFigures {
        try readers.withReader(catalog: catalog) { reader in
            let sql = stream == nil
                ? "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(sum(raw_size), 0) FROM blocks"
                : "SELECT count(*), coalesce(sum(length(payload)), 0), coalesce(sum(raw_size), 0) FROM blocks, (SELECT id FROM streams WHERE name = ?) AS stream WHERE block_key BETWEEN stream.id * \(BlockStore.keysPerStream) AND stream.id * \(BlockStore.keysPerStream) + \(BlockStore.keysPerStream - 1)"
            let statement = try reader.connection.statement(sql)
            defer { statement.reset() }
            if let stream { statement.bind(1, stream) }
            guard try statement.step() else { return StorageFigures(blocks: 0, storedBytes: 0, rawBytes: 0) }
            return StorageFigures(
                blocks: UInt64(max(0, statement.int64(0))), storedBytes: UInt64(max(0, statement.int64(1))),
                rawBytes: UInt64(max(0, statement.int64(2))))
        }
    }
}
