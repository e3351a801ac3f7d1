import Testing
@testable import EventLog

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
        #expect(info.firstSequence == 31 && info.lastSequence == 40 && info.retainedCount == 10)
        #expect(try log.append([1], to: "s").sequence == 41)
        #expect(try log.verify().isClean)
    }

    @Test func replayLastKeepsOnlyTheLatestEvent() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s", policy: StreamPolicy(capacity: .replayLast))
        for index in 0..<50 { try log.append(samplePayload(index), to: "s") }
        #expect(try log.readAll("s").map(\.sequence) == [50])
        // Whole blocks before the retained event are deleted, not just hidden.
        let report = try log.verify()
        #expect(report.blockCount == 1, "\(report)")
        #expect(report.isClean)
    }

    @Test func maxAgeDropsEventsOlderThanTheLimitAsTheLogAppends() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<5).map(samplePayload), to: "s")
        let old = try #require(try log.streamInfo("s")).lastTimestamp
        // Wait until the wall clock has moved past the first batch so the age limit separates them.
        while wallClockMicroseconds() <= old + 2_000 {}
        let cutoffReceipt = try log.append(contentsOf: (5..<8).map(samplePayload), to: "s")
        let age = Duration.microseconds(wallClockMicroseconds() - old - 1_000)
        let info = try log.updatePolicy(of: "s", to: StreamPolicy(maxAge: age))
        #expect(info.firstSequence == cutoffReceipt.firstSequence)
        #expect(try log.readAll("s").map(\.sequence) == Array(6...8))
        #expect(try log.append([9], to: "s").sequence == 9)
        #expect(try log.verify().isClean)
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

        #expect(try log.truncate("s", before: 1_000).retainedCount == 0)
        #expect(try log.readAll("s").isEmpty)
        #expect(try log.append([1], to: "s").sequence == 61)
        #expect(try log.readAll("s").map(\.sequence) == [61])
        #expect(try log.verify().isClean)
    }

    @Test func enforceRetentionAppliesAgeLimitsToIdleStreams() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("idle", policy: StreamPolicy(maxAge: .milliseconds(1)))
        try log.append(contentsOf: [[1], [2]], to: "idle")
        let last = try #require(try log.streamInfo("idle")).lastTimestamp
        while wallClockMicroseconds() <= last + 2_000 {}
        try log.enforceRetention()
        #expect(try log.readAll("idle").isEmpty)
        #expect(try log.streamInfo("idle")?.lastSequence == 2)
        #expect(try log.verify().isClean)
    }
}
