import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct EventLogTests {
    @Test func appendsGetConsecutiveSequencesAndReadBackInOrder() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("orders")
        let first = try log.append(samplePayload(0), to: "orders")
        let batch = try log.append(contentsOf: (1..<10).map(samplePayload), to: "orders")
        #expect(first.sequence == 1)
        #expect(batch.sequences == 2...10)
        #expect(batch.timestamp >= first.timestamp)
        let events = try log.readAll("orders")
        #expect(events.map(\.sequence) == Array(1...10))
        #expect(events.map(\.payload) == (0..<10).map(samplePayload))
        #expect(events.allSatisfy { $0.kind == .value })
    }

    @Test func timestampsAreWallClockMicrosecondsAndNeverDecrease() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
        for index in 0..<20 { try log.append(samplePayload(index), to: "s") }
        let after = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let stamps = try log.readAll("s").map(\.timestamp)
        #expect(stamps == stamps.sorted())
        #expect(stamps.first! >= before - 1_000 && stamps.last! <= after + 1_000)
    }

    @Test func historySurvivesReopening() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("s", policy: StreamPolicy(capacity: .last(100), replay: .last(5)))
            try log.append(contentsOf: (0..<50).map(samplePayload), to: "s")
            try log.appendCompleted(to: "s")
            log.close()
        }
        let log = try EventLog(path: dir.file())
        let info = try #require(try log.streamInfo("s"))
        #expect(info.lastSequence == 51)
        #expect(info.state == .completed)
        #expect(info.policy.capacity == .last(100))
        #expect(info.policy.replay == .last(5))
        let events = try log.readAll("s")
        #expect(events.map(\.sequence) == Array(47...51))
        #expect(events.last?.kind == .completed)
        expectLogError(.streamEnded) { try log.append([1], to: "s") }
    }

    @Test func failedTerminalKeepsItsMessage() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append([1, 2], to: "s")
        let receipt = try log.appendFailed(to: "s", message: "upstream timed out")
        #expect(receipt.sequence == 2)
        let last = try #require(try log.readAll("s").last)
        #expect(last.kind == .failed)
        #expect(last.failureMessage == "upstream timed out")
        let error = expectLogError(.streamEnded) { try log.append([3], to: "s") }
        #expect(error?.message.contains("failed at sequence 2") == true)
    }

    @Test func readPositionsSelectTheRightEvents() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 4
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        var stamps: [Int64] = []
        for index in 0..<30 { stamps.append(try log.append(samplePayload(index), to: "s").timestamp) }
        #expect(try log.readAll("s", from: .all).count == 30)
        #expect(try log.readAll("s", from: .last(3)).map(\.sequence) == [28, 29, 30])
        #expect(try log.readAll("s", from: .last(100)).count == 30)
        #expect(try log.readAll("s", from: .from(sequence: 17)).map(\.sequence) == Array(17...30))
        #expect(try log.readAll("s", from: .from(sequence: 31)).isEmpty)
        #expect(try log.readAll("s", from: .newOnly).isEmpty)
        let since = try log.readAll("s", from: .since(microseconds: stamps[12]))
        #expect(since.first?.sequence == UInt64(stamps.firstIndex(of: stamps[12])! + 1))
        #expect(since.last?.sequence == 30)
        #expect(try log.readAll("s", from: .since(microseconds: stamps[29] + 1)).isEmpty)
    }

    @Test func batchesLargerThanABlockSpanSeveralBlocks() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<1000).map(samplePayload), to: "s")
        try log.append(Array(repeating: 7, count: 200_000), to: "s")
        let events = try log.readAll("s")
        expectContiguous(events, from: 1)
        #expect(events.count == 1001)
        #expect(events.last?.payload.count == 200_000)
        let report = try log.verify()
        #expect(report.isClean, "\(report)")
        #expect(report.blockCount >= 5)
    }

    @Test func cursorYieldsEventsOneBlockAtATime() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<600).map(samplePayload), to: "s")
        let cursor = try log.events(in: "s", from: .from(sequence: 100))
        var sequences: [UInt64] = []
        while let event = try cursor.next() { sequences.append(event.sequence) }
        #expect(sequences == Array(100...600))
        try log.append(samplePayload(600), to: "s")
        #expect(try cursor.next()?.sequence == 601)
        #expect(try cursor.next() == nil)
    }

    @Test func readStopsWhenTheBodyReturnsFalse() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<300).map(samplePayload), to: "s")
        var seen = 0
        try log.read("s") { _ in
            seen += 1
            return seen < 5
        }
        #expect(seen == 5)
    }

    @Test func asyncAppendReturnsAfterCommit() async throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        let receipt = try await log.append(samplePayload(1), to: "s")
        let batch = try await log.append(contentsOf: [[1], [2]], to: "s")
        #expect(receipt.sequence == 1)
        #expect(batch.sequences == 2...3)
        #expect(try log.streamInfo("s")?.lastSequence == 3)
    }

    @Test func appendingToAMissingStreamFailsWithItsName() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        let error = expectLogError(.streamNotFound) { try log.append([1], to: "nope") }
        #expect(error?.stream == "nope")
        expectLogError(.invalidArgument) { try log.append(contentsOf: [], to: "nope") }
    }

    @Test func streamsAreListedCreatedOnceAndDeleted() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("b")
        try log.createStream("a")
        expectLogError(.streamExists) { try log.createStream("a") }
        try log.ensureStream("a", policy: StreamPolicy(capacity: .last))
        #expect(try log.streams().map(\.name) == ["a", "b"])
        #expect(try log.streamInfo("a")?.policy.capacity == .unlimited)
        try log.append([1], to: "a")
        try log.deleteStream("a")
        #expect(try log.streamInfo("a") == nil)
        expectLogError(.streamNotFound) { try log.append([1], to: "a") }
        try log.createStream("a")
        #expect(try log.append([1], to: "a").sequence == 1)
        #expect(try log.verify().isClean)
    }

    @Test func closedLogRefusesWork() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        log.close()
        expectLogError(.closed) { try log.append([1], to: "s") }
        expectLogError(.closed) { _ = try log.streams() }
    }

    @Test func embeddedSchemaIsTheSchemaFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schemas/eventlog.sql")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == Schema.current)
    }
}
