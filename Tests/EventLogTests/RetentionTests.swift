import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct RetentionTests {
    @Test func capacityKeepsTheLastNAndSequencesGoOn() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 8
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s", policy: StreamPolicy(capacity: .last(10)))
        for index in 0..<25 { try log.append(samplePayload(index), to: "s") }
        try log.append(contentsOf: (25..<40).map(samplePayload), to: "s")
        let events = try log.readAll("s")
        #expect(events.map(\.sequence) == Array(31...40))
        #expect(events.map(\.payload) == (30..<40).map(samplePayload))
        let info = try #require(try log.streamInfo("s"))
        #expect(info.firstSequence == 31 && info.lastSequence == 40 && info.count == 10)
        #expect(try log.append([1], to: "s").sequence == 41)
        #expect(try log.verify().isClean)
    }

    @Test func replayLastKeepsOnlyTheLatestEvent() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s", policy: StreamPolicy(capacity: .last))
        for index in 0..<50 { try log.append(samplePayload(index), to: "s") }
        #expect(try log.readAll("s").map(\.sequence) == [50])
        // Whole blocks before the retained event are deleted, not just hidden.
        let report = try log.verify()
        #expect(report.blockCount == 1, "\(report)")
        #expect(report.isClean)
    }

    @Test func maxAgeDropsEventsOlderThanTheLimitAsTheLogAppends() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let log = try EventLog(path: dir.file(), options: clock.options())
        try log.createStream("s", policy: StreamPolicy(maxAge: .seconds(10)))
        try log.append(contentsOf: (0..<5).map(samplePayload), to: "s")   // t = 0 s
        clock.advance(by: 6_000_000)
        try log.append(contentsOf: (5..<8).map(samplePayload), to: "s")   // t = 6 s
        #expect(try log.readAll("s").count == 8, "nothing is 10 s old yet")
        clock.advance(by: 4_000_001)
        try log.append(samplePayload(8), to: "s")                         // t = 10 s: the first five expire
        #expect(try log.readAll("s").map(\.sequence) == Array(6...9))
        #expect(try log.streamInfo("s")?.firstSequence == 6)
        #expect(try log.verify().isClean)
    }

    @Test func timestampsRepeatRatherThanGoBackWhenTheClockSteps() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let log = try EventLog(path: dir.file(), options: clock.options())
        try log.createStream("s")
        let first = try log.append([1], to: "s").timestamp
        clock.advance(by: -5_000_000)
        #expect(try log.append([2], to: "s").timestamp == first)
        clock.advance(by: 10_000_000)
        #expect(try log.append([3], to: "s").timestamp == first + 5_000_000)
    }

    @Test func maxBytesDropsOldestWholeBlocksButKeepsTheNewest() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s", policy: StreamPolicy(maxBytes: 1_000))
        let big = incompressibleBytes(600)
        for _ in 0..<5 { try log.append(big, to: "s") }
        let info = try #require(try log.streamInfo("s"))
        #expect(info.storedBytes <= 1_000)
        #expect(info.firstSequence == 5 && info.lastSequence == 5)
        #expect(try log.readAll("s").map(\.sequence) == [5])

        try log.updatePolicy(of: "s", to: StreamPolicy(maxBytes: 1))
        try log.append(big, to: "s")
        #expect(try log.readAll("s").map(\.sequence) == [6])
        #expect(try log.verify().isClean)
    }

    @Test func truncationByPositionCountAndTimeTrimsExactly() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 10
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        var stamps: [Int64] = []
        for index in 0..<60 { stamps.append(try log.append(samplePayload(index), to: "s").timestamp) }

        #expect(try log.truncate("s", before: 15).firstSequence == 15)
        #expect(try log.readAll("s").first?.sequence == 15)
        #expect(try log.truncate("s", before: 3).firstSequence == 15, "truncation never moves backwards")

        #expect(try log.truncate("s", keepingLast: 40).firstSequence == 21)
        #expect(try log.readAll("s").map(\.sequence) == Array(21...60))

        let cut = stamps[29]
        let expected = UInt64(stamps.firstIndex { $0 >= cut }! + 1)
        #expect(try log.truncate("s", olderThan: cut).firstSequence == max(21, expected))
        #expect(try log.readAll("s").allSatisfy { $0.timestamp >= cut })

        #expect(try log.truncate("s", before: 1_000).count == 0)
        #expect(try log.readAll("s").isEmpty)
        #expect(try log.append([1], to: "s").sequence == 61)
        #expect(try log.readAll("s").map(\.sequence) == [61])
        #expect(try log.verify().isClean)
    }

    @Test func enforceRetentionAppliesAgeLimitsToIdleStreams() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let log = try EventLog(path: dir.file(), options: clock.options())
        try log.createStream("idle", policy: StreamPolicy(maxAge: .milliseconds(1)))
        try log.append(contentsOf: [[1], [2]], to: "idle")
        clock.advance(by: 2_000)
        try log.enforceRetention()
        #expect(try log.readAll("idle").isEmpty)
        #expect(try log.streamInfo("idle")?.lastSequence == 2)
        #expect(try log.verify().isClean)
    }

    @Test func capacityCountsValuesSoATerminalEventKeepsTheLastValuesBesideIt() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        try log.createStream("last-two", policy: StreamPolicy(capacity: .last(2)))
        for index in 1...5 { _ = try log.append(samplePayload(index), to: "last-two") }
        _ = try log.appendCompleted(to: "last-two")
        let kept = try log.readAll("last-two", from: .all)
        #expect(kept.map(\.sequence) == [4, 5, 6])
        #expect(kept.map(\.kind) == [.value, .value, .completed])
    }
}
