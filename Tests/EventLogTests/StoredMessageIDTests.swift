import Foundation
import StreamdTestSupport
import Testing

@testable import EventLog

/// The message ids a log stores with its events (the table `message_ids`): kept across a crash and a
/// reopen, for the stream's last `deduplicationWindow` events, and forgotten with their stream.
@Suite struct StoredMessageIDTests {
    @Test func idsOnlyTheJournalHeldAreStoredWhenTheLogOpensAgain() throws {
        let dir = TemporaryDirectory(), crash = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: JournalTests.journaled())
        try log.createStream("s")
        try log.append([0], to: "s")
        let release = JournalTests.holdWriter(of: log)
        let receipt = try log.append(.value, [[1], [2], [3]], messageIDs: ["a", nil, "c"], to: "s", expectingLastSequence: nil)
        #expect(receipt.firstSequence == 2)
        let image = try JournalTests.crashImage(of: dir.file(), into: crash)
        release.signal()
        log.close()

        let reopened = try EventLog(path: image, options: JournalTests.journaled())
        defer { reopened.close() }
        let kept = try reopened.rememberedMessageIDs(of: "s")
        #expect(kept.map(\.id) == ["a", "c"] && kept.map(\.sequence) == [2, 4])
        #expect(kept.allSatisfy { $0.timestamp == receipt.timestamp })
    }

    @Test func onlyTheIdsOfTheLastWindowOfEventsAreKept() throws {
        let dir = TemporaryDirectory()
        var options = JournalTests.journaled()
        options.deduplicationWindow = 10
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        for index in 0..<25 {
            _ = try log.append(.value, [[UInt8(index)]], messageIDs: [index % 5 == 4 ? nil : "id-\(index)"], to: "s", expectingLastSequence: nil)
        }
        let kept = try log.rememberedMessageIDs(of: "s")
        #expect(kept.map(\.sequence) == [16, 17, 18, 19, 21, 22, 23, 24], "the ids of sequences 16...25, oldest first")
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 1_000)
        #expect(try connection.integer("SELECT count(*) FROM message_ids") <= 10 + 10, "older ids are deleted, not only skipped")
        expectLogError(.invalidArgument) {
            _ = try log.append(.value, [[1], [2]], messageIDs: ["one"], to: "s", expectingLastSequence: nil)
        }
    }

    @Test func aDeletedStreamsIdsAreForgottenAndAStreamGivenItsIdStartsWithNone() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        try log.createStream("old")
        _ = try log.append(.value, [[1]], messageIDs: ["kept?"], to: "old", expectingLastSequence: nil)
        try log.deleteStream("old")
        try log.createStream("new")
        #expect(try log.rememberedMessageIDs(of: "new").isEmpty)
        #expect(try log.rememberedMessageIDs(of: "old").isEmpty)
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 1_000)
        #expect(try connection.integer("SELECT count(*) FROM message_ids") == 0)
    }

    @Test func aVersion2LogGainsTheTableAndKeepsItsEvents() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("s")
            for index in 0..<5 { try log.append([UInt8(index)], to: "s") }
            log.close()
        }
        try rawSQL(dir.file(), "DROP TABLE message_ids; \(removingVersion4) PRAGMA user_version = 2;")
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        #expect(try log.readAll("s").map(\.payload) == (0..<5).map { [UInt8($0)] })
        _ = try log.append(.value, [[9]], messageIDs: ["after"], to: "s", expectingLastSequence: nil)
        #expect(try log.rememberedMessageIDs(of: "s").map(\.sequence) == [6])
        #expect(try log.verify().isClean)
    }
}
