import Testing
@testable import EventLog
import StreamdTestSupport

/// Sequences end at 2^43 - 1, the largest a block key holds; a stream that got there still drops
/// its events like any other.
@Suite struct LastSequenceTests {
    /// A log whose streams `names` have assigned every sequence but the last (as if after 2^43 - 2 appends).
    private func logOneBeforeTheLastSequence(_ dir: TemporaryDirectory, _ names: [String]) throws -> EventLog {
        do {
            let log = try EventLog(path: dir.file())
            for name in names { try log.createStream(name) }
            log.close()
        }
        let last = BlockStore.maximumSequence
        try rawSQL(dir.file(), "UPDATE streams SET first_seq = \(last), last_seq = \(last - 1)")
        return try EventLog(path: dir.file())
    }

    @Test func aStreamAtTheLastSequenceTruncatedToItsEndKeepsNoBlock() throws {
        let dir = TemporaryDirectory()
        let log = try logOneBeforeTheLastSequence(dir, ["before", "keeping"])
        for name in ["before", "keeping"] {
            #expect(try log.append(samplePayload(1), to: name).sequence == BlockStore.maximumSequence)
            expectLogError(.invalidArgument) { try log.append([2], to: name) }
        }

        let truncated = try log.truncate("before", before: BlockStore.maximumSequence + 1)
        let kept = try log.truncate("keeping", keepingLast: 0)
        for info in [truncated, kept] {
            #expect(info.firstSequence == BlockStore.maximumSequence + 1)
            #expect(info.storedBytes == 0, "\(info.name) still counts its last block")
            #expect(try log.storageFigures(of: info.name).blocks == 0, "\(info.name) kept its last block")
            #expect(try log.readAll(info.name).isEmpty)
        }
        #expect(try log.verify().isClean)
    }
}
