import EventLog
import Testing

@testable import StreamServer

/// One read of the log serves the deliveries that follow it, and what it holds is exactly the
/// retained events of what it covers.
@Suite struct ReadAheadTests {
    @Test func aRangeWithinWhatWasReadIsServedFromMemory() throws {
        let temporary = try TemporaryLog()
        let log = temporary.log
        try log.createStream("s")
        try log.append(contentsOf: (1...300).map { [UInt8(truncatingIfNeeded: $0)] }, to: "s")
        var ahead = ReadAhead()
        #expect(try ahead.events(1...64, of: "s", in: log).map(\.sequence) == Array(1...64))
        // Gone from the log, still in memory: the next ranges come from the first read.
        try log.truncate("s", before: 301)
        #expect(try ahead.events(65...128, of: "s", in: log).map(\.sequence) == Array(65...128))
        #expect(try ahead.events(250...300, of: "s", in: log).map(\.payload) == (250...300).map { [UInt8(truncatingIfNeeded: $0)] })
        // Past what was read: the log again, which holds nothing there now.
        try log.append([1], to: "s")
        #expect(try ahead.events(301...301, of: "s", in: log).map(\.sequence) == [301])
        ahead.clear()
        #expect(try ahead.events(1...10, of: "s", in: log).isEmpty, "cleared: read again, and the log no longer holds them")
    }

    @Test func eventsTrimmedBeforeTheReadAreLeftOutAndTheRangeStillCounts() throws {
        let temporary = try TemporaryLog()
        let log = temporary.log
        try log.createStream("s")
        try log.append(contentsOf: (1...20).map { [UInt8($0)] }, to: "s")
        try log.truncate("s", before: 11)
        var ahead = ReadAhead()
        #expect(try ahead.events(5...15, of: "s", in: log).map(\.sequence) == Array(11...15))
        #expect(try ahead.events(16...20, of: "s", in: log).map(\.sequence) == Array(16...20))
    }

    @Test func aReadGoesOnPastTheRangeUntilAboutAMebibyteOfPayloads() throws {
        let temporary = try TemporaryLog()
        let log = temporary.log
        try log.createStream("big")
        for _ in 0..<8 { try log.append(contentsOf: (0..<8).map { _ in [UInt8](repeating: 7, count: 64 * 1024) }, to: "big") }
        var ahead = ReadAhead()
        #expect(try ahead.events(1...4, of: "big", in: log).count == 4)
        try log.truncate("big", before: 60)
        #expect(try ahead.events(5...16, of: "big", in: log).count == 12, "16 events of 64 KiB were read: 1 MiB")
        #expect(try ahead.events(17...20, of: "big", in: log).isEmpty, "past them the log is read again")
        #expect(try ahead.events(58...62, of: "big", in: log).map(\.sequence) == [60, 61, 62])
        // A range larger than the bound is read whole.
        ahead.clear()
        #expect(try ahead.events(60...64, of: "big", in: log).count == 5)
    }
}
