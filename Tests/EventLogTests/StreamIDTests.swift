import Testing
@testable import EventLog

/// Block keys hold a stream's id in 20 bits: ids go up as SQLite would pick them, and once the
/// largest would not fit, new streams take the smallest free id.
@Suite struct StreamIDTests {
    private func id(of stream: String, in path: String) throws -> Int64 {
        let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 1_000)
        return try connection.integer("SELECT id FROM streams WHERE name = '\(stream)'")
    }

    @Test func newStreamsTakeOnePastTheLargestId() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        for name in ["a", "b", "c"] { try log.createStream(name) }
        try log.deleteStream("b")
        try log.createStream("d")
        #expect(try id(of: "d", in: dir.file()) == 4, "an id freed below the largest is not reused while ids remain")
    }

    @Test func pastTheLargestKeyableIdNewStreamsTakeTheSmallestFreeOne() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        for name in ["a", "b", "c"] { try log.createStream(name) }
        try log.append([1, 2, 3], to: "b")
        try log.deleteStream("b")
        // A stream at the last id a block key can hold.
        try rawSQL(dir.file(), "INSERT INTO streams (id, name, created_us) VALUES (\(BlockStore.streamIDLimit - 1), 'last', 1)")
        try log.createStream("d")
        #expect(try id(of: "d", in: dir.file()) == 2)
        #expect(try log.readAll("d").isEmpty, "none of b's events leak into the stream that took its id")
        #expect(try log.append([9], to: "d").sequence == 1)
        #expect(try log.append([8], to: "last").sequence == 1)
        #expect(try log.readAll("last").map(\.payload) == [[8]])
        #expect(try log.verify().isClean)
    }
}
