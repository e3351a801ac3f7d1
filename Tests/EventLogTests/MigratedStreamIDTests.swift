import Testing
@testable import EventLog
import StreamdTestSupport

/// Version 1 picked stream ids as SQLite does, one past the largest, so a log that kept creating
/// streams and deleting old ones reached ids past the 20 bits a version-2 block key holds.
@Suite struct MigratedStreamIDTests {
    /// Turns the version-2 log at `path` back into what version 1 stored, with every stream id raised by `offset`.
    private func makeVersion1(_ path: String, raisingIDsBy offset: Int64) throws {
        let start = Schema.version1.range(of: "CREATE TABLE blocks (")!
        let end = Schema.version1.range(of: "ON blocks (stream_id, last_ts, last_seq);")!
        try rawSQL(path, """
            BEGIN;
            ALTER TABLE blocks RENAME TO blocks_v2;
            \(Schema.version1[start.lowerBound..<end.upperBound])
            INSERT INTO blocks SELECT stream_id + \(offset), first_seq, last_seq, first_ts, last_ts, count, codec, raw_size, crc32, payload FROM blocks_v2;
            DROP TABLE blocks_v2;
            DROP TABLE message_ids;
            \(removingVersion4)
            UPDATE streams SET id = id + \(offset);
            PRAGMA user_version = 1;
            COMMIT;
            """)
    }

    @Test func aVersion1LogWithStreamIdsPastTwentyBitsIsMigratedAndReadsTheSame() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("a")
            try log.createStream("b")
            for index in 0..<10 {
                try log.append(samplePayload(index), to: "a")
                try log.append(contentsOf: [samplePayload(index), samplePayload(index + 1)], to: "b")
            }
            log.close()
        }
        // Ids 2^20 - 1 and 2^20: the first still fits a block key, the second does not.
        try makeVersion1(dir.file(), raisingIDsBy: BlockStore.streamIDLimit - 2)

        let log = try EventLog(path: dir.file())
        #expect(try log.readAll("a").map(\.payload) == (0..<10).map(samplePayload))
        #expect(try log.readAll("b").count == 20)
        #expect(try log.streamInfo("b")?.lastSequence == 20)
        #expect(try log.storageFigures(of: "b").blocks == 10)
        #expect(try log.append([1], to: "b").sequence == 21)
        try log.createStream("c")
        #expect(try log.append([2], to: "c").sequence == 1)
        #expect(try log.readAll("c").map(\.payload) == [[2]])
        #expect(try log.verify().isClean)
    }
}
