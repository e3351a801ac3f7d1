import StreamdTestSupport
import Testing
@testable import EventLog

/// Reads since a time search blocks by sequence; they must find what a scan of every event finds,
/// with long runs of one timestamp across blocks and a clock that steps back.
@Suite struct SinceTimeSearchTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func readsSinceATimeStartWhereAScanOfEveryEventWould(seed: UInt64) throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock(1_000_000)
        var base = EventLogOptions()
        base.maximumEventsPerBlock = 3
        let log = try EventLog(path: dir.file(), options: clock.options(base))
        try log.createStream("s")
        var random = SeededGenerator(seed: seed)
        for index in 0..<300 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: break  // the same timestamp again
            case 4..<6: clock.advance(by: -Int64.random(in: 1...50, using: &random))  // the clock steps back
            default: clock.advance(by: Int64.random(in: 1...20, using: &random))
            }
            let count = Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 32...60, using: &random) : 1
            try log.append(contentsOf: (0..<count).map { samplePayload(index * 100 + $0) }, to: "s")
        }
        let all = try log.readAll("s")
        for pair in zip(all, all.dropFirst()) { try #require(pair.0.timestamp <= pair.1.timestamp) }
        let times = Set(all.map(\.timestamp)).flatMap { [$0 - 1, $0, $0 + 1] }
        for time in times.sorted() {
            let expected = all.first { $0.timestamp >= time }?.sequence
            let found = try log.readAll("s", from: .since(microseconds: time)).first?.sequence
            #expect(found == expected, "since \(time)")
        }
        // Truncating by time drops exactly what the scan says is older.
        let cut = all[all.count / 2].timestamp
        let info = try log.truncate("s", olderThan: cut)
        #expect(info.firstSequence == all.first { $0.timestamp >= cut }?.sequence)
        #expect(try log.verify().isClean)
    }
}
