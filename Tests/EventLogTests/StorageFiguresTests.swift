import Testing
@testable import EventLog

@Suite struct StorageFiguresTests {
    @Test func figuresCountBlocksStoredAndRawBytesPerStreamAndInAll() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        try log.ensureStream("a")
        try log.ensureStream("b")
        try log.append(contentsOf: (0..<100).map(samplePayload), to: "a")
        try log.append([1, 2, 3], to: "b")
        let a = try log.storageFigures(of: "a"), b = try log.storageFigures(of: "b"), all = try log.storageFigures()
        let payloadBytes = UInt64((0..<100).map { samplePayload($0).count }.reduce(0, +))
        // Raw: the payloads plus their framing (a kind byte and two varints each, 3...16 bytes).
        #expect(a.rawBytes >= payloadBytes + 300 && a.rawBytes <= payloadBytes + 1_600)
        #expect(a.storedBytes < a.rawBytes / 2)
        #expect(a.storedBytes == UInt64(try #require(try log.streamInfo("a")).storedBytes))
        #expect(b.blocks == 1 && b.rawBytes >= 6)
        #expect(all.blocks == a.blocks + b.blocks && all.rawBytes == a.rawBytes + b.rawBytes && all.storedBytes == a.storedBytes + b.storedBytes)
        #expect(try log.storageFigures(of: "missing") == StorageFigures(blocks: 0, storedBytes: 0, rawBytes: 0))
    }
}
