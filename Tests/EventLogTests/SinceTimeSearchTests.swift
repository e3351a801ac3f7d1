import Synchronization
import Testing
import StreamdTestSupport
@testable import EventLog

/// The first sequence whose timestamp is at or after `time` by a linear scan, or one past the end.
private func expectedStart(_ events: [LogEvent], since time: Int64, end: UInt64) -> UInt64 {
    events.first { $0.timestamp >= time }?.sequence ?? end + 1
}

/// Times worth asking about: before everything, each stored timestamp and its neighbours, midpoints
/// between distinct timestamps, past the end, and the extremes of the type.
private func probeTimes(_ events: [LogEvent]) -> [Int64] {
    let stamps = Array(Set(events.map(\.timestamp))).sorted()
    var times: Set<Int64> = [Int64.min, -1, 0, 1, Int64.max]
    if let first = stamps.first, let last = stamps.last {
        times.formUnion([first - 1_000_000_000, first - 1, last + 1, last + 1_000_000_000])
    }
    for stamp in stamps { times.formUnion([stamp - 1, stamp, stamp + 1]) }
    for (low, high) in zip(stamps, stamps.dropFirst()) { times.insert(low + (high - low) / 2) }
    return times.sorted()
}

/// Appends `appends` batches of 1...8 events to `stream`, moving `clock` between them by nothing
/// (runs of equal timestamps), a little, a lot, or slightly backwards (the log keeps its own
/// timestamps non-decreasing). `neighbours` get interleaved appends, so their blocks sit on both
/// sides of the stream's key range.
private func writeTimedStream(
    _ log: EventLog, _ stream: String, neighbours: [String], clock: ManualClock, appends: Int,
    _ random: inout SeededGenerator
) throws {
    for index in 0..<appends {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35: break
        case 35..<75: clock.advance(by: Int64.random(in: 1...10, using: &random))
        case 75..<90: clock.advance(by: Int64.random(in: 1_000...100_000, using: &random))
        case 90..<96: clock.advance(by: Int64.random(in: 1_000_000_000...100_000_000_000, using: &random))
        default: clock.advance(by: -Int64.random(in: 1...500, using: &random))
        }
        let count = Int.random(in: 1...8, using: &random)
        try log.append(contentsOf: (0..<count).map { samplePayload(index * 10 + $0) }, to: stream)
        if let neighbour = neighbours.randomElement(using: &random), Bool.random(using: &random) {
            try log.append(samplePayload(index), to: neighbour)
        }
    }
}

/// Small blocks, so a stream of a few hundred events has a hundred-odd blocks to search.
private func smallBlockOptions(_ clock: ManualClock) -> EventLogOptions {
    var base = EventLogOptions()
    base.maximumEventsPerBlock = 3
    return clock.options(base)
}

/// A log with streams "before", "s" and "after", "s" written by `writeTimedStream`; keep it for as
/// long as the log is used (it owns the directory).
private struct TimedLog {
    let dir = TemporaryDirectory()
    let clock = ManualClock()
    let log: EventLog

    init(seed: UInt64, appends: Int) throws {
        log = try EventLog(path: dir.file(), options: smallBlockOptions(clock))
        for name in ["before", "s", "after"] { try log.createStream(name) }
        var random = SeededGenerator(seed: seed)
        try writeTimedStream(log, "s", neighbours: ["before", "after"], clock: clock, appends: appends, &random)
    }
}

@Suite struct SinceTimeSearchTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func readingSinceATimeStartsAtTheFirstEventStampedAtOrAfterIt(seed: UInt64) throws {
        let timed = try TimedLog(seed: seed, appends: 90)
        let log = timed.log
        defer { log.close() }
        let events = try log.readAll("s")
        let last = try #require(try log.streamInfo("s")).lastSequence
        try #require(events.count == Int(last))
        try #require(try log.storageFigures(of: "s").blocks > 60)

        for (index, time) in probeTimes(events).enumerated() {
            let start = expectedStart(events, since: time, end: last)
            var first: UInt64?
            try log.read("s", from: .since(microseconds: time)) { event in
                first = event.sequence
                return false
            }
            #expect(first == (start <= last ? start : nil), "since \(time)")
            #expect(try log.events(in: "s", from: .since(microseconds: time)).nextSequence == start, "cursor since \(time)")
            guard index % 7 == 0 else { continue }
            #expect(try log.readAll("s", from: .since(microseconds: time)) == Array(events.drop { $0.sequence < start }), "all since \(time)")
        }
    }

    @Test func followingSinceATimeDeliversHistoryFromTheFirstEventStampedAtOrAfterIt() throws {
        let timed = try TimedLog(seed: 17, appends: 40)
        let log = timed.log
        defer { log.close() }
        let events = try log.readAll("s")
        let last = try #require(try log.streamInfo("s")).lastSequence
        let times = probeTimes(events)
        for time in stride(from: 0, to: times.count, by: 5).map({ times[$0] }) {
            let delivered = Mutex<[UInt64]>([])
            let observation = try log.follow("s", from: .since(microseconds: time)) { event in
                delivered.withLock { $0.append(event.sequence) }
            }
            log.waitForObservers()
            observation.cancel()
            let start = expectedStart(events, since: time, end: last)
            #expect(delivered.withLock { $0 } == Array(start..<(last + 1)), "follow since \(time)")
        }
    }

    @Test(arguments: [UInt64(4), 5])
    func truncatingOlderThanATimeKeepsExactlyTheEventsStampedAtOrAfterIt(seed: UInt64) throws {
        let timed = try TimedLog(seed: seed, appends: 80)
        let log = timed.log
        defer { log.close() }
        let original = try log.readAll("s")
        let last = try #require(original.last).sequence
        // A cut inside the first blocks first, so the search runs with a first retained sequence past 1
        // and, likely, a partly retained oldest block.
        var retained = try log.truncate("s", before: 5).firstSequence
        #expect(retained == 5)

        let times = probeTimes(original)
        // Every fourth probe, increasing, and the last (past everything) so the stream ends empty.
        for time in stride(from: 0, to: times.count, by: 4).map({ times[$0] }) + [Int64.max] {
            // Reads since a time after the cut: never before the first retained event.
            let kept = try log.readAll("s")
            for probe in [Int64.min, time == .min ? time : time - 1, time, time == .max ? time : time + 1] {
                let start = max(retained, expectedStart(original, since: probe, end: last))
                #expect(try log.readAll("s", from: .since(microseconds: probe)) == Array(kept.drop { $0.sequence < start }),
                        "since \(probe) with first retained \(retained)")
            }
            retained = max(retained, expectedStart(original, since: time, end: last))
            let info = try log.truncate("s", olderThan: time)
            #expect(info.firstSequence == retained, "truncate older than \(time)")
            #expect(try log.readAll("s") == Array(original.drop { $0.sequence < retained }), "after truncating older than \(time)")
        }
        #expect(retained == last + 1, "the probes end past the last timestamp")
        #expect(try log.storageFigures(of: "s").blocks == 0)
        #expect(try log.verify().isClean)
    }

    @Test func maxAgeRetentionDropsExactlyTheEventsStampedBeforeNowMinusTheAge() throws {
        let timed = try TimedLog(seed: 6, appends: 60)
        let log = timed.log
        defer { log.close() }
        let original = try log.readAll("s")
        let last = try #require(original.last).sequence
        let age: Int64 = 3_600_000_000
        timed.clock.set(try #require(original.first).timestamp + age)
        #expect(try log.updatePolicy(of: "s", to: StreamPolicy(maxAge: .microseconds(age))).firstSequence == 1)

        var retained: UInt64 = 1
        let times = probeTimes(original).filter { $0 > Int64.min + age && $0 < Int64.max - age }
        for cutoff in stride(from: 0, to: times.count, by: 3).map({ times[$0] }) {
            timed.clock.set(cutoff + age)
            try log.enforceRetention()
            retained = max(retained, expectedStart(original, since: cutoff, end: last))
            #expect(try log.streamInfo("s")?.firstSequence == retained, "cutoff \(cutoff)")
            #expect(try log.readAll("s").first?.sequence == (retained <= last ? retained : nil), "cutoff \(cutoff)")
        }
        #expect(try log.verify().isClean)
    }

    @Test func aStreamOfOneBlockIsSearchedLikeAnyOther() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let log = try EventLog(path: dir.file(), options: smallBlockOptions(clock))
        defer { log.close() }
        for name in ["before", "one", "empty", "after"] { try log.createStream(name) }
        try log.append(contentsOf: [[1], [2]], to: "before")
        clock.advance(by: 1_000)
        let stamp = try log.append(contentsOf: [[1], [2], [3]], to: "one").timestamp
        clock.advance(by: 1_000)
        try log.append(contentsOf: [[1], [2]], to: "after")
        #expect(try log.storageFigures(of: "one").blocks == 1)

        for (time, start) in [(Int64.min, UInt64(1)), (stamp - 1, 1), (stamp, 1), (stamp + 1, 4), (Int64.max, 4)] {
            #expect(try log.readAll("one", from: .since(microseconds: time)).map(\.sequence) == Array(start..<4), "since \(time)")
            #expect(try log.events(in: "one", from: .since(microseconds: time)).nextSequence == start, "cursor since \(time)")
            #expect(try log.events(in: "empty", from: .since(microseconds: time)).nextSequence == 1, "empty since \(time)")
        }
        #expect(try log.truncate("one", olderThan: stamp).firstSequence == 1)
        #expect(try log.truncate("one", olderThan: stamp + 1).firstSequence == 4)
        #expect(try log.storageFigures(of: "one").blocks == 0)
        #expect(try log.truncate("empty", olderThan: .max).firstSequence == 1)
        #expect(try log.readAll("before").count == 2)
        #expect(try log.readAll("after").count == 2)
        #expect(try log.verify().isClean)
    }
}
