import Testing
@testable import EventLog
import StreamdTestSupport

/// The catalog ids of the log's streams by name, read with a connection of its own (tests only).
func catalogStreamIDs(_ path: String) throws -> [String: Int64] {
    let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 2_000)
    let statement = try connection.statement("SELECT name, id FROM streams")
    defer { statement.reset() }
    var ids: [String: Int64] = [:]
    while try statement.step() { ids[statement.text(0)] = statement.int64(1) }
    return ids
}

@Suite struct StreamIDReuseTests {
    @Test func aNewStreamTakesTheIDOfADeletedOneAndNoneOfItsEvents() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 3
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        for name in ["a", "b", "c"] { try log.createStream(name) }
        try log.append(contentsOf: (0..<10).map(samplePayload), to: "a")
        try log.append(contentsOf: (10..<30).map(samplePayload), to: "b")
        try log.append(contentsOf: (30..<37).map(samplePayload), to: "c")
        try log.append(samplePayload(99), to: "b")
        let before = try catalogStreamIDs(dir.file())
        #expect(Set(before.values).count == 3)

        try log.deleteStream("b")
        try log.createStream("d")
        let after = try catalogStreamIDs(dir.file())
        #expect(after["d"] == before["b"], "the smallest free id is b's")
        #expect(after["a"] == before["a"] && after["c"] == before["c"])

        let info = try #require(try log.streamInfo("d"))
        #expect(info.firstSequence == 1 && info.lastSequence == 0 && info.storedBytes == 0)
        #expect(try log.readAll("d").isEmpty)
        #expect(try log.readAll("d", from: .from(sequence: 1)).isEmpty)
        #expect(try log.readAll("d", from: .since(microseconds: .min)).isEmpty)
        #expect(try log.storageFigures(of: "d") == StorageFigures(blocks: 0, storedBytes: 0, rawBytes: 0))
        #expect(try log.truncate("d", olderThan: .max).firstSequence == 1, "no block of b is found by d's search")

        let receipt = try log.append(contentsOf: [[1], [2]], to: "d")
        #expect(receipt.firstSequence == 1 && receipt.lastSequence == 2)
        #expect(try log.readAll("d").map(\.payload) == [[1], [2]])
        #expect(try log.readAll("a").map(\.payload) == (0..<10).map(samplePayload))
        #expect(try log.readAll("c").map(\.payload) == (30..<37).map(samplePayload))
        #expect(try log.verify().isClean)
    }

    @Test func idsStayTheSmallestFreeOnesAcrossManyDeletions() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        for index in 1...6 {
            try log.createStream("s\(index)")
            try log.append(samplePayload(index), to: "s\(index)")
        }
        let first = try catalogStreamIDs(dir.file())
        #expect(Set(first.values) == Set(1...6))
        // Free 1, 3 and 4: new streams fill them lowest first, then go past the top.
        for name in ["s1", "s3", "s4"] { try log.deleteStream(name) }
        var expected = first
        for name in ["s1", "s3", "s4"] { expected[name] = nil }
        for (name, id) in [("n1", Int64(1)), ("n2", 3), ("n3", 4), ("n4", 7)] {
            try log.createStream(name)
            expected[name] = id
            #expect(try catalogStreamIDs(dir.file()) == expected, "after creating \(name)")
            #expect(try log.readAll(name).isEmpty, "\(name) starts empty")
        }
        // A recreated name starts again at sequence 1, under whatever id is free.
        try log.deleteStream("s6")
        try log.createStream("s6")
        #expect(try catalogStreamIDs(dir.file())["s6"] == 6)
        #expect(try log.readAll("s6").isEmpty)
        #expect(try log.append([9], to: "s6").firstSequence == 1)
        for name in ["s2", "s5"] { #expect(try log.readAll(name).count == 1) }
        #expect(try log.verify().isClean)
    }
}
