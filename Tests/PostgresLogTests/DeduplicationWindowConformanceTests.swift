import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Synchronization
import Testing

/// Each stream's own de-duplication window, by count and by age, kept by the log the same way on
/// the SQLite file and on PostgreSQL: stored with the stream's policy, applied to what the log
/// remembers, and to what it keeps on disk.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct DeduplicationWindowConformanceTests {
    /// The clock of a log under test, in microseconds, moved by hand.
    private final class ManualClock: Sendable {
        let now = Atomic<Int64>(1_700_000_000_000_000)
        func advance(seconds: Int64) { now.add(seconds * 1_000_000, ordering: .relaxed) }
    }

    private func served(_ store: Store, clock: ManualClock, defaultEvents: Int = 10_000) throws -> (opened: OpenedLog, log: any ServedLog) {
        var options = EventLogOptions()
        options.deduplicationWindow = defaultEvents
        options.clock = { clock.now.load(ordering: .relaxed) }
        return try store.served(options: options)
    }

    /// A fresh log of `store` on a clock moved by hand, holding `stream` with `window`.
    private func served(_ store: Store, holding stream: String, window: DeduplicationWindow) throws -> (clock: ManualClock, opened: OpenedLog, log: any ServedLog) {
        let clock = ManualClock()
        let (opened, log) = try served(store, clock: clock)
        try log.createStream(stream, policy: StreamPolicy(deduplication: window))
        return (clock, opened, log)
    }

    private func publish(_ log: any ServedLog, _ id: String, to stream: String) throws {
        _ = try log.append(.value, [Array(id.utf8)], messageIDs: [id], to: stream, expectingLastSequence: nil)
    }

    @Test(arguments: Store.allCases)
    func eachStreamRemembersTheIdsOfItsOwnCountOfEvents(store: Store) throws {
        let clock = ManualClock()
        let served = try served(store, clock: clock, defaultEvents: 6)
        let log = served.log
        try log.createStream("three", policy: StreamPolicy(deduplication: DeduplicationWindow(events: 3)))
        try log.createStream("default", policy: StreamPolicy())
        try log.createStream("off", policy: StreamPolicy(deduplication: .off))
        for index in 1...10 {
            for stream in ["three", "default", "off"] { try publish(log, "id-\(index)", to: stream) }
        }
        #expect(try log.rememberedMessageIDs(of: "three").map(\.sequence) == [8, 9, 10])
        #expect(try log.rememberedMessageIDs(of: "default").map(\.sequence) == Array(5...10), "the log's default: the last 6")
        #expect(try log.rememberedMessageIDs(of: "off").isEmpty)
        #expect(try log.streamInfo("three")?.policy.deduplication == DeduplicationWindow(events: 3))
        #expect(try log.streamInfo("default")?.policy.deduplication == nil)
        if log.checksMessageIDs {
            expectLogError(.duplicateMessageID) { try publish(log, "id-8", to: "three") }
            try publish(log, "id-7", to: "three")
            try publish(log, "id-1", to: "off")
        }
    }

    @Test(arguments: Store.allCases)
    func anIdIsForgottenOnceItsWindowsDurationHasPassedHoweverFewEventsCame(store: Store) throws {
        let (clock, opened, log) = try served(store, holding: "minute", window: DeduplicationWindow(duration: .seconds(60)))
        try publish(log, "early", to: "minute")
        clock.advance(seconds: 40)
        try publish(log, "later", to: "minute")
        #expect(try log.rememberedMessageIDs(of: "minute").map(\.id) == ["early", "later"])
        clock.advance(seconds: 30)
        #expect(try log.rememberedMessageIDs(of: "minute").map(\.id) == ["later"], "70 s after it, the first id is out of the window")
        #expect(try log.rememberedMessageIDs(of: "minute", among: ["early", "later"]).map(\.id) == ["later"])
        if log.checksMessageIDs {
            expectLogError(.duplicateMessageID) { try publish(log, "later", to: "minute") }
        }
        try publish(log, "early", to: "minute")
        #expect(try log.rememberedMessageIDs(of: "minute").map(\.sequence) == [2, 3], "published again, the id is stored anew")
        withExtendedLifetime(opened) {}
    }

    @Test(arguments: Store.allCases)
    func aWindowWithBothBoundsForgetsAtWhicheverComesFirst(store: Store) throws {
        let (clock, opened, log) = try served(store, holding: "both", window: DeduplicationWindow(events: 4, duration: .seconds(10)))
        for index in 1...6 { try publish(log, "id-\(index)", to: "both") }
        #expect(try log.rememberedMessageIDs(of: "both").map(\.sequence) == [3, 4, 5, 6], "by count first")
        clock.advance(seconds: 11)
        try publish(log, "id-7", to: "both")
        #expect(try log.rememberedMessageIDs(of: "both").map(\.sequence) == [7], "then by age")
        withExtendedLifetime(opened) {}
    }

    /// A reader that can hold only so many ids gets the newest of them, oldest first.
    @Test(arguments: Store.allCases)
    func theNewestIdsAreReadUpToACount(store: Store) throws {
        let clock = ManualClock()
        let (opened, log) = try served(store, clock: clock)
        try log.createStream("many", policy: StreamPolicy())
        for index in 1...10 { try publish(log, "id-\(index)", to: "many") }
        #expect(try log.rememberedMessageIDs(of: "many", newest: 3).map(\.id) == ["id-8", "id-9", "id-10"])
        #expect(try log.rememberedMessageIDs(of: "many", newest: 50).count == 10)
        withExtendedLifetime(opened) {}
    }

    /// The ids that left a window leave the disk too, as publishes go on: a window by age keeps no
    /// more rows than its duration holds.
    @Test(arguments: Store.allCases)
    func idsOutOfTheWindowAreDeletedAsPublishesGoOn(store: Store) throws {
        let (clock, opened, log) = try served(store, holding: "aged", window: DeduplicationWindow(duration: .seconds(5)))
        for index in 1...50 {
            try publish(log, "id-\(index)", to: "aged")
            clock.advance(seconds: 1)
        }
        let rows = try storedIDCount(of: "aged", in: opened)
        #expect(rows <= 6, "50 ids published a second apart, 5 s remembered: \(rows) rows kept")
        #expect(try log.rememberedMessageIDs(of: "aged").map(\.sequence) == Array(46...50))
    }

    @Test(arguments: Store.allCases)
    func aChangedWindowIsKeptWithTheStreamAndAppliesAtOnce(store: Store) throws {
        let clock = ManualClock()
        let served = try served(store, clock: clock)
        let log = served.log
        try log.createStream("changing", policy: StreamPolicy())
        for index in 1...5 { try publish(log, "id-\(index)", to: "changing") }
        let policy = StreamPolicy(deduplication: DeduplicationWindow(events: 2))
        try log.updatePolicy(of: "changing", to: policy)
        #expect(try log.streamInfo("changing")?.policy == policy)
        #expect(try log.rememberedMessageIDs(of: "changing").map(\.sequence) == [4, 5])
        expectLogError(.invalidArgument) {
            try log.updatePolicy(of: "changing", to: StreamPolicy(deduplication: DeduplicationWindow()))
        }
        expectLogError(.invalidArgument) {
            try log.createStream("bad", policy: StreamPolicy(deduplication: DeduplicationWindow(duration: .zero)))
        }
    }

    /// The rows of `stream` in the store's message-id table, read through the log with a window that
    /// takes them all.
    private func storedIDCount(of stream: String, in opened: OpenedLog) throws -> Int {
        let log = try #require(opened.log as? any ServedLog)
        // Everything the table holds for the stream, however old: a window that never ends.
        var wide = StreamPolicy(deduplication: DeduplicationWindow(events: UInt64(Int64.max)))
        let before = try #require(try log.streamInfo(stream)).policy
        wide.capacity = before.capacity
        try log.updatePolicy(of: stream, to: wide)
        defer { _ = try? log.updatePolicy(of: stream, to: before) }
        return try log.rememberedMessageIDs(of: stream).count
    }
}
