import Testing
import StreamdTestSupport
@testable import EventLog

/// Blocks whose events carry different timestamps inside one block: the log's own commits stamp a
/// whole commit with one time, so only blocks written here reach the search's in-block step.
@Suite struct BlockStoreTimeSearchTests {
    /// Inserts `events` (sequences 1...) of stream `streamID` as raw blocks of 1...5 events.
    private func insertBlocks(
        _ events: [LogEvent], streamID: Int64, on connection: SQLiteConnection, _ random: inout SeededGenerator
    ) throws {
        var start = 0
        var framer = BlockFramer(capacity: 256)
        while start < events.count {
            let end = min(events.count, start + Int.random(in: 1...5, using: &random))
            let block = events[start..<end]
            framer.reset(firstTimestamp: block.first!.timestamp)
            for event in block { event.payload.withUnsafeBytes { framer.append(kind: .value, timestamp: event.timestamp, payload: $0) } }
            try framer.bytes.withUnsafeBytes { payload in
                let header = BlockHeader(
                    firstSequence: block.first!.sequence, lastSequence: block.last!.sequence,
                    firstTimestamp: block.first!.timestamp, lastTimestamp: block.last!.timestamp, count: block.count,
                    codec: .raw, rawSize: payload.count, crc: crc32Checksum(payload))
                try BlockStore.insert(streamID: streamID, header: header, payload: payload, on: connection)
            }
            start = end
        }
    }

    @Test(arguments: [UInt64(7), 8, 9, 10])
    func theSearchFindsTheFirstSequenceStampedAtOrAfterATimeInsideBlocks(seed: UInt64) throws {
        let dir = TemporaryDirectory()
        let connection = try SQLiteConnection(path: dir.file(), readOnly: false, create: true, busyTimeoutMilliseconds: 2_000)
        try connection.execute(Schema.current)
        var random = SeededGenerator(seed: seed)
        var time: Int64 = 1_000_000
        let events: [LogEvent] = (1...Int.random(in: 1...200, using: &random)).map { index in
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: break
            case 4..<9: time += Int64.random(in: 1...20, using: &random)
            default: time += Int64.random(in: 1_000...1_000_000_000, using: &random)
            }
            return LogEvent(sequence: UInt64(index), timestamp: time, payload: [UInt8(truncatingIfNeeded: index)])
        }
        let last = events.last!.sequence
        try insertBlocks(events, streamID: 1, on: connection, &random)
        // The next stream's blocks are stamped at the end of time: a search that ran past stream 1's
        // keys would find them.
        let far = (1...9).map { LogEvent(sequence: UInt64($0), timestamp: .max, payload: [0]) }
        try insertBlocks(far, streamID: 2, on: connection, &random)

        let decoder = try BlockDecoder()
        var probes: Set<Int64> = [.min, 0, .max]
        for event in events { probes.formUnion([event.timestamp - 1, event.timestamp, event.timestamp + 1]) }
        for cut in [0, 3, 11, 40] {
            // Drop the blocks that end before `cut`, as retention does; a partly kept block stays whole.
            if cut > 0 { _ = try BlockStore.deleteBlocks(streamID: 1, before: UInt64(cut), on: connection) }
            let oldest = try firstStoredSequence(streamID: 1, connection)
            let retained = events.filter { $0.sequence >= oldest }
            for probe in probes.sorted() {
                let expected = retained.first { $0.timestamp >= probe }?.sequence ?? last + 1
                let found = try BlockStore.firstSequence(
                    streamID: 1, atOrAfter: probe, lastSequence: last, decoder: decoder, on: connection)
                #expect(found == expected, "seed \(seed), cut \(cut), since \(probe)")
            }
        }
    }

    /// The first sequence of the stream's oldest stored block, or `UInt64.max` when it has none.
    private func firstStoredSequence(streamID: Int64, _ connection: SQLiteConnection) throws -> UInt64 {
        let statement = try connection.statement(
            "SELECT first_seq FROM blocks WHERE block_key BETWEEN ? AND ? ORDER BY block_key LIMIT 1")
        defer { statement.reset() }
        statement.bind(1, BlockStore.key(streamID, 0))
        statement.bind(2, BlockStore.key(streamID, BlockStore.maximumSequence))
        return try statement.step() ? UInt64(statement.int64(0)) : .max
    }
}
