import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Synchronization
import Testing

/// The log's semantics, checked the same way on the SQLite file and on PostgreSQL (issue 18): a test
/// here that passes for one store and fails for the other is a difference a user would see.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct LogConformanceTests {
    @Test(arguments: Store.allCases)
    func appendsAreNumberedFromOneWithoutGapAndReadBackInOrder(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("orders", policy: StreamPolicy())
        let one = try log.append(Array("a".utf8), to: "orders")
        #expect(one.firstSequence == 1 && one.lastSequence == 1)
        let batch = try log.append(contentsOf: (0..<1_000).map { Array("event \($0)".utf8) }, to: "orders")
        #expect(batch.firstSequence == 2 && batch.lastSequence == 1_001)
        #expect(batch.timestamp >= one.timestamp)
        let events = try log.readAll("orders", from: .all)
        #expect(events.map(\.sequence) == Array(1...1_001))
        #expect(events.last?.payload == Array("event 999".utf8))
        let info = try #require(try log.streamInfo("orders"))
        #expect(info.count == 1_001 && info.firstSequence == 1 && info.lastSequence == 1_001)
        #expect(info.storedBytes > 0 && info.storedBytes < info.rawBytes, "the blocks are compressed: \(info)")
        #expect(info.firstTime == one.timestamp)
        let figures = try log.storageFigures(of: "orders")
        #expect(figures.blocks >= 4, "1 001 events take several blocks of at most 256: \(figures)")
        #expect(figures.storedBytes == info.storedBytes)
    }

    @Test(arguments: Store.allCases)
    func theCatalogNamesWhatIsWrong(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("a", policy: StreamPolicy())
        expectLogError(.streamExists) { try log.createStream("a", policy: StreamPolicy()) }
        expectLogError(.streamNotFound) { try log.append([1], to: "missing") }
        expectLogError(.streamNotFound) { _ = try log.readAll("missing") }
        expectLogError(.invalidStreamName) { try log.createStream("", policy: StreamPolicy()) }
        expectLogError(.invalidArgument) { try log.append(contentsOf: [], to: "a") }
        #expect(try log.ensureStream("a", policy: StreamPolicy(capacity: .last(3))).policy == StreamPolicy(), "an existing stream keeps its policy")
        try log.ensureStream("b", policy: StreamPolicy(capacity: .last(3)))
        #expect(try log.streamCount() == 2)
        #expect(try log.streams().map(\.name) == ["a", "b"])
        #expect(try log.streamInfo("missing") == nil)
    }

    @Test(arguments: Store.allCases)
    func aCapacityKeepsTheLastEventsAndTheDefaultReplayStartsThere(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("last", policy: StreamPolicy(capacity: .last(5), replay: .last(2)))
        for index in 1...300 { try log.append(Array("\(index)".utf8), to: "last") }
        let info = try #require(try log.streamInfo("last"))
        #expect(info.firstSequence == 296 && info.lastSequence == 300 && info.count == 5)
        #expect(try log.readAll("last", from: .all).map(\.sequence) == Array(296...300))
        #expect(try log.readAll("last").map(\.sequence) == [299, 300])
        #expect(try log.startSequence(of: "last", from: .newOnly) == 301)
        #expect(try log.storageFigures(of: "last").blocks < 10, "whole blocks before the first retained event are deleted")
        try log.updatePolicy(of: "last", to: StreamPolicy(capacity: .last(1)))
        #expect(try log.readAll("last", from: .all).map(\.sequence) == [300])
    }

    @Test(arguments: Store.allCases)
    func aCompletionIsTheStreamsLastEvent(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("done", policy: StreamPolicy())
        try log.createStream("broken", policy: StreamPolicy())
        try log.append([7], to: "done")
        #expect(try log.appendCompleted(to: "done").firstSequence == 2)
        expectLogError(.streamEnded) { try log.append([8], to: "done") }
        #expect(try log.readAll("done", from: .all).map(\.kind) == [.value, .completed])
        try log.appendFailed(to: "broken", message: "upstream went away")
        let failure = try #require(try log.readAll("broken", from: .all).first)
        #expect(failure.kind == .failed && failure.payload == Array("upstream went away".utf8))
        #expect(try log.streamInfo("done")?.state == .completed)
    }

    @Test(arguments: Store.allCases)
    func truncationDropsTheOldestEventsAndSequencesGoOn(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("t", policy: StreamPolicy())
        try log.append(contentsOf: (1...600).map { [UInt8(truncatingIfNeeded: $0)] }, to: "t")
        #expect(try log.truncate("t", before: 101).firstSequence == 101)
        #expect(try log.truncate("t", keepingLast: 50).firstSequence == 551)
        #expect(try log.readAll("t", from: .all).map(\.sequence) == Array(551...600))
        let later = try log.append([1], to: "t")
        #expect(later.firstSequence == 601)
        #expect(try log.truncate("t", olderThan: later.timestamp).firstSequence == 601)
        #expect(try log.readAll("t", from: .all).map(\.sequence) == [601])
        #expect(try log.readAll("t", from: .since(microseconds: later.timestamp)).map(\.sequence) == [601])
    }

    @Test(arguments: Store.allCases)
    func aDeletedStreamIsGoneAndANewOneUnderItsNameStartsAtOne(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("d", policy: StreamPolicy())
        try log.append(contentsOf: [[1], [2], [3]], to: "d")
        try log.deleteStream("d")
        #expect(try log.streamInfo("d") == nil)
        expectLogError(.streamNotFound) { try log.deleteStream("d") }
        try log.createStream("d", policy: StreamPolicy())
        #expect(try log.append([9], to: "d").firstSequence == 1)
        #expect(try log.readAll("d", from: .all).map(\.payload) == [[9]])
    }

    @Test(arguments: Store.allCases)
    func anObserverGetsEveryLaterCommitOnceInOrder(store: Store) throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("live", policy: StreamPolicy())
        try log.append([0], to: "live")
        let seen = Mutex<[UInt64]>([])
        let observation = try log.observeAppends(to: "live") { append in
            seen.withLock { $0 += append.events.map(\.sequence) }
        }
        defer { observation.cancel() }
        for index in 1...50 { try log.append([UInt8(index)], to: "live") }
        try log.append(contentsOf: (0..<300).map { [UInt8(truncatingIfNeeded: $0)] }, to: "live")
        #expect(pollUntil { seen.withLock { $0.count } >= 350 })
        #expect(seen.withLock { $0 } == Array(2...351))
    }

    @Test(arguments: Store.allCases)
    func concurrentAppendersShareTheSequencesWithoutGapOrDuplicate(store: Store) async throws {
        let opened = try store.open()
        let log = opened.log
        try log.createStream("many", policy: StreamPolicy())
        let receipts = try await withThrowingTaskGroup(of: [AppendReceipt].self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try await onOwnThread {
                        try (0..<100).map { index in try log.append(Array("\(writer)-\(index)".utf8), to: "many") }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(receipts.map(\.firstSequence).sorted() == Array(1...800))
        let events = try log.readAll("many", from: .all)
        #expect(events.map(\.sequence) == Array(1...800))
        #expect(Set(events.map(\.payload)).count == 800)
    }

    @Test(arguments: Store.allCases)
    func retentionDropsAreReportedWithTheLimitThatMadeThem(store: Store) throws {
        let drops = Mutex<[RetentionDrop]>([])
        var options = EventLogOptions()
        options.retentionObserver = { drop in drops.withLock { $0.append(drop) } }
        let opened = try store.open(options: options)
        let log = opened.log
        try log.createStream("kept", policy: StreamPolicy(capacity: .last(5)))
        for index in 0..<10 { try log.append([UInt8(index)], to: "kept") }
        try log.updatePolicy(of: "kept", to: StreamPolicy(capacity: .last(2)))
        let reported = drops.withLock { $0 }
        #expect(reported.allSatisfy { $0.stream == "kept" && $0.limits == [.capacity] }, "\(reported)")
        #expect(reported.reduce(0) { $0 + $1.events } == 8)
        #expect(reported.last?.firstSequence == 9)
    }

    @Test(arguments: Store.allCases)
    func messageIDsAreStoredWithTheirEventsForTheLastWindowOfEventsAndGoWithTheirStream(store: Store) throws {
        let served = try servedLog(store, deduplicationWindow: 10)
        let log = served.log
        try log.createStream("ids", policy: StreamPolicy())
        let first = try log.append(.value, [[1], [2], [3]], messageIDs: ["a", nil, "c"], to: "ids", expectingLastSequence: nil)
        #expect(try log.rememberedMessageIDs(of: "ids") == [
            StoredMessageID(id: "a", sequence: 1, timestamp: first.timestamp), StoredMessageID(id: "c", sequence: 3, timestamp: first.timestamp),
        ])
        for index in 0..<20 { _ = try log.append(.value, [[9]], messageIDs: ["n\(index)"], to: "ids", expectingLastSequence: nil) }
        #expect(try log.rememberedMessageIDs(of: "ids").map(\.sequence) == Array(14...23), "the ids of the last 10 events")
        let asked = try log.rememberedMessageIDs(of: "ids", among: ["n19", "a", "n10", "never", "n12"])
        #expect(asked.map(\.id) == ["n10", "n12", "n19"], "only those asked about, of the last 10 events, oldest first")
        #expect(try log.rememberedMessageIDs(of: "ids", among: []).isEmpty)
        #expect(try log.rememberedMessageIDs(of: "missing", among: ["a"]).isEmpty)
        expectLogError(.invalidArgument) { _ = try log.append(.value, [[1], [2]], messageIDs: ["x"], to: "ids", expectingLastSequence: nil) }
        try log.deleteStream("ids")
        try log.createStream("ids", policy: StreamPolicy())
        #expect(try log.rememberedMessageIDs(of: "ids").isEmpty, "a new life of the name keeps no id of the old one")
        #expect(try log.rememberedMessageIDs(of: "missing").isEmpty)
    }

    /// However large the first page a reader asks for, it reads every event once, in order, across
    /// blocks of small commits, and stops where it says.
    @Test(arguments: Store.allCases)
    func aReadExpectingAnyCountReadsEveryEventOnceAndStopsWhereTold(store: Store) throws {
        let served = try servedLog(store)
        let log = served.log
        try log.createStream("small", policy: StreamPolicy())
        for batch in 0..<300 { try log.append(contentsOf: (0..<7).map { [UInt8(truncatingIfNeeded: batch), UInt8($0)] }, to: "small") }
        for count in [1, 100, 5_000, 100_000] {
            var sequences: [UInt64] = []
            try log.read("small", from: .from(sequence: 5), expecting: count) { event in
                sequences.append(event.sequence)
                return true
            }
            #expect(sequences == Array(5...2_100), "expecting \(count)")
        }
        var taken = 0
        try log.read("small", from: .all, expecting: 4_096) { _ in
            taken += 1
            return taken < 10
        }
        #expect(taken == 10)
    }

    /// A byte limit and an age limit are applied by the appends to their stream, and an age limit by
    /// the retention pass to a stream nobody appends to, the same on both stores.
    @Test(arguments: Store.allCases)
    func byteAndAgeLimitsAreAppliedByAppendsAndByTheRetentionPass(store: Store) throws {
        let now = Atomic<Int64>(1_700_000_000_000_000)
        var options = EventLogOptions()
        options.clock = { now.load(ordering: .relaxed) }
        let opened = try store.open(options: options)
        let log = opened.log
        try log.createStream("bytes", policy: StreamPolicy(maxBytes: 4_096))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 { try log.append((0..<100).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: "bytes") }
        let bytes = try #require(try log.streamInfo("bytes"))
        #expect(bytes.storedBytes <= 4_096 && bytes.firstSequence > 1 && bytes.lastSequence == 200, "\(bytes)")
        #expect(try log.readAll("bytes", from: .all).map(\.sequence) == Array(bytes.firstSequence...200))

        try log.createStream("aged", policy: StreamPolicy(maxAge: .seconds(10)))
        for index in 0..<8 { try log.append([UInt8(index)], to: "aged") }
        now.add(11_000_000, ordering: .relaxed)
        try log.append([99], to: "aged")
        #expect(try log.readAll("aged", from: .all).map(\.sequence) == [9], "the append dropped what its age limit no longer keeps")

        try log.createStream("idle", policy: StreamPolicy(maxAge: .seconds(10)))
        for index in 0..<3 { try log.append([UInt8(index)], to: "idle") }
        now.add(11_000_000, ordering: .relaxed)
        try log.enforceRetention()
        #expect(try log.readAll("idle", from: .all).isEmpty)
        #expect(try log.streamInfo("idle")?.lastSequence == 3, "the sequence goes on where it was")
    }

    /// An id published again once its first event left the window is stored again, with its new
    /// event, and kept: it neither collides with its old row nor loses the new one to the pruning.
    @Test(arguments: Store.allCases)
    func anIdPublishedAgainAfterItsEventLeftTheWindowIsStoredAndKept(store: Store) throws {
        let served = try servedLog(store, deduplicationWindow: 10)
        let log = served.log
        try log.createStream("ids", policy: StreamPolicy())
        try log.createStream("other", policy: StreamPolicy())
        _ = try log.append(.value, [[1]], messageIDs: ["a"], to: "ids", expectingLastSequence: nil)
        for index in 0..<12 { try log.append([UInt8(index)], to: "ids") }
        let again = try log.append(.value, [[2]], messageIDs: ["a"], to: "ids", expectingLastSequence: nil)
        #expect(again.firstSequence == 14)
        #expect(try log.rememberedMessageIDs(of: "ids").map(\.sequence) == [14])
        try log.append([3], to: "other")
        if log.checksMessageIDs {
            let refusal = expectLogError(.duplicateMessageID) { _ = try log.append(.value, [[4]], messageIDs: ["a"], to: "ids", expectingLastSequence: nil) }
            #expect(refusal?.duplicates[0]?.sequence == 14)
        }
    }

    /// Pages of large events are cut by their bytes, and the read goes on past the cut.
    @Test(arguments: Store.allCases)
    func aReadOfLargeEventsGoesOnPastEveryPage(store: Store) throws {
        let served = try servedLog(store)
        let log = served.log
        try log.createStream("large", policy: StreamPolicy())
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 { try log.append((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: "large") }
        var sequences: [UInt64] = []
        try log.read("large", from: .all, expecting: 4_096) { event in
            sequences.append(event.sequence)
            return true
        }
        #expect(sequences == Array(1...20))
    }

    /// A fresh log of `store` as the daemon serves it, keeping the ids of its last
    /// `deduplicationWindow` events by default; hold `opened` while using it.
    private func servedLog(_ store: Store, deduplicationWindow: Int = 10_000) throws -> (opened: OpenedLog, log: any ServedLog) {
        var options = EventLogOptions()
        options.deduplicationWindow = deduplicationWindow
        return try store.served(options: options)
    }
}
