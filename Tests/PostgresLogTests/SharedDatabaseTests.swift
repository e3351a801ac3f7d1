import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Synchronization
import Testing

/// Several logs on one PostgreSQL database, as several streamd hosts would hold them: one set of
/// streams, gap-free sequences across all of them, and each one's commits live on the others.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct SharedDatabaseTests {
    /// Appends 1 000 events to `stream` from four threads at once, two through each of `logs`; their receipts.
    private func appendAtOnce(through logs: [PostgresLog], to stream: String) async throws -> [AppendReceipt] {
        try await withThrowingTaskGroup(of: [AppendReceipt].self) { group in
            for (index, log) in (logs + logs).enumerated() {
                group.addTask {
                    try await onOwnThread {
                        try (0..<250).map { event in try log.append(Array("\(index)/\(event)".utf8), to: stream) }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    @Test func appendsThroughTwoLogsTakeOneGapFreeSequence() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        try first.createStream("shared", policy: StreamPolicy())
        let receipts = try await appendAtOnce(through: [first, second], to: "shared")
        #expect(receipts.map(\.firstSequence).sorted() == Array(1...1_000))
        for log in [first, second] {
            let events = try log.readAll("shared", from: .all)
            #expect(events.map(\.sequence) == Array(1...1_000))
            #expect(Set(events.map(\.payload)).count == 1_000, "each event once")
        }
    }

    /// A capacity makes each commit delete the blocks it no longer keeps; one log's commit that numbers
    /// from the row it left, racing the other's under the row lock, once deleted those blocks before
    /// waiting for the row, and the two then waited for each other (PostgreSQL ended one as deadlocked).
    @Test func appendsThroughTwoLogsToACappedStreamNeverDeadlock() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        try first.createStream("capped", policy: StreamPolicy(capacity: .last(5)))
        let receipts = try await appendAtOnce(through: [first, second], to: "capped")
        #expect(receipts.map(\.firstSequence).sorted() == Array(1...1_000))
        for log in [first, second] {
            #expect(try log.readAll("capped", from: .all).map(\.sequence) == Array(996...1_000))
        }
    }

    @Test func anObserverOfOneLogGetsTheCommitsOfTheOtherInOrder() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let publisher = try PostgresLog(PostgresAddress(url))
        let subscriber = try PostgresLog(PostgresAddress(url))
        defer { publisher.close(); subscriber.close() }
        try publisher.createStream("feed", policy: StreamPolicy())
        let seen = Mutex<[UInt64]>([])
        let observation = try subscriber.observeAppends(to: "feed") { append in seen.withLock { $0 += append.events.map(\.sequence) } }
        defer { observation.cancel() }
        for index in 0..<200 { try publisher.append([UInt8(truncatingIfNeeded: index)], to: "feed") }
        try publisher.appendCompleted(to: "feed")
        #expect(pollUntil { seen.withLock { $0.count } >= 201 })
        #expect(seen.withLock { $0 } == Array(1...201))
    }

    /// A log alone on its database spares its commits the notification; one that starts listening
    /// rings once, so the first rings again at once (only a notification turns it back on); when the
    /// other closes, the first counts no listener at its next look and stops. Meanwhile a commit of
    /// either reaches an observer of the other, and a commit of the lone log is found by the next look.
    /// A log on another database of the same server is no listener of this one.
    @Test func aLogRingsOnlyWhileAnotherListens() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let neighbour = try PostgresLog(PostgresAddress(server.makeDatabase()))
        let first = try PostgresLog(PostgresAddress(url))
        defer { first.close(); neighbour.close() }
        try first.createStream("bell", policy: StreamPolicy())
        #expect(pollUntil { !first.ringsForOthers }, "alone, it stops ringing")
        try first.append([1], to: "bell")
        let second = try PostgresLog(PostgresAddress(url))
        let seen = Mutex<[UInt64]>([])
        let observation = try second.observeAppends(to: "bell") { append in seen.withLock { $0 += append.events.map(\.sequence) } }
        #expect(pollUntil { first.ringsForOthers && second.ringsForOthers }, "each hears the other")
        try first.append([2], to: "bell")
        try second.append([3], to: "bell")
        #expect(pollUntil { seen.withLock { $0 } == [2, 3] })
        observation.cancel()
        second.close()
        #expect(pollUntil { !first.ringsForOthers }, "alone again, it stops again")
        try first.append([4], to: "bell")
        #expect(try first.readAll("bell", from: .all).map(\.sequence) == [1, 2, 3, 4])
    }

    @Test func anObserverCatchesUpAfterItsListeningConnectionWasCut() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        let publisher = try PostgresLog(PostgresAddress(url))
        let subscriber = try PostgresLog(PostgresAddress(url))
        defer { publisher.close(); subscriber.close() }
        try publisher.createStream("cut", policy: StreamPolicy())
        let seen = Mutex<[UInt64]>([])
        let observation = try subscriber.observeAppends(to: "cut") { append in seen.withLock { $0 += append.events.map(\.sequence) } }
        defer { observation.cancel() }
        try publisher.append([1], to: "cut")
        #expect(pollUntil { seen.withLock { $0 } == [1] })
        // Every listener of the database loses its connection, and with it the notifications rung
        // meanwhile (each log's listener connects on its own thread: both are waited for first).
        let listeners = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'streamd listener'"
        #expect(pollUntil { (try? server.sql(listeners))?.trimmingCharacters(in: .whitespacesAndNewlines) == "2" })
        let cut = try server.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'streamd listener'")
        #expect(cut.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        for index in 2...20 { try publisher.append([UInt8(index)], to: "cut") }
        #expect(pollUntil { seen.withLock { $0.count } >= 20 })
        #expect(seen.withLock { $0 } == Array(1...20))
    }

    /// Age limits of streams nobody appends to are applied by one process at a time: the holder of
    /// the retention lease; when it closes, another takes the lease at its next sweep.
    @Test func oneLogAtATimeSweepsAgeLimitsAndAnotherTakesOverWhenItCloses() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let start = Int64(Date().timeIntervalSince1970 * 1_000_000)
        var early = EventLogOptions()
        early.clock = { start }
        var late = EventLogOptions()
        late.clock = { start + 60_000_000 }
        let holder = try PostgresLog(PostgresAddress(url), options: early)
        let other = try PostgresLog(PostgresAddress(url), options: late)
        defer { other.close() }
        try holder.createStream("aged", policy: StreamPolicy(maxAge: .seconds(10)))
        try holder.append(contentsOf: [[1], [2], [3]], to: "aged")
        try holder.enforceRetention()  // takes the lease; nothing is 10 s old at its clock
        try other.enforceRetention()  // does not hold the lease: leaves the stream alone
        #expect(try other.streamInfo("aged")?.count == 3)
        holder.close()
        // The server lets the lock go once the holder's session has ended, a moment after it closed:
        // the next sweeps take the lease, and the events are a minute old at this log's clock.
        #expect(pollUntil {
            (try? other.enforceRetention()) != nil && (try? other.streamInfo("aged")?.count) == 0
        })
    }

    /// A read that spans pages stays in the life of the stream it began in: deleted and made again
    /// by another process meanwhile, the read ends instead of going on into the new life's events.
    @Test func aReadEndsWhenItsStreamIsDeletedAndMadeAgainMeanwhile() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let reader = try PostgresLog(PostgresAddress(url))
        let other = try PostgresLog(PostgresAddress(url))
        defer { reader.close(); other.close() }
        try reader.createStream("lives", policy: StreamPolicy())
        for index in 0..<100 { try reader.append(Array("old \(index)".utf8), to: "lives") }
        var seen: [String] = []
        try reader.read("lives", from: .all) { event in
            if seen.isEmpty {
                try other.deleteStream("lives")
                try other.createStream("lives", policy: StreamPolicy())
                for index in 0..<100 { try other.append(Array("new \(index)".utf8), to: "lives") }
            }
            seen.append(String(decoding: event.payload, as: UTF8.self))
            return true
        }
        #expect(!seen.isEmpty && seen.allSatisfy { $0.hasPrefix("old ") }, "\(seen.filter { !$0.hasPrefix("old ") }.prefix(3))")
    }

    @Test func optionsOutOfRangeAreRefusedBeforeAnythingStarts() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        var options = EventLogOptions()
        options.compressionLevel = 10
        let error = expectLogError(.invalidArgument) { _ = try PostgresLog(PostgresAddress(url), options: options) }
        #expect(error?.message.hasPrefix("options out of range: compressionLevel must be 1...9") == true)
    }

    /// However many readers read at once, a log lends at most `PostgresConnectionPool.limit`
    /// connections (16): the others wait their turn instead of exhausting the server's connections.
    @Test func manyReadersAtOnceShareABoundedNumberOfConnections() async throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        let log = try PostgresLog(PostgresAddress(url))
        defer { log.close() }
        try log.createStream("crowd", policy: StreamPolicy())
        try log.append(contentsOf: [[1], [2]], to: "crowd")
        let monitor = Task { () throws -> Int in
            var most = 0
            for _ in 0..<10 {
                let open = try server.sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'streamd'", database: database)
                most = max(most, Int(open.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
                try await Task.sleep(for: .milliseconds(50))
            }
            return most
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await onOwnThread {
                        try log.read("crowd", from: .all) { _ in
                            Thread.sleep(forTimeInterval: 0.2)
                            return false
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let most = try await monitor.value
        // The writer's connection carries the same name: 16 lent, plus it.
        #expect(most <= 17, "\(most) connections at once")
        #expect(most >= 2, "the readers overlapped")
    }

    /// A connection that broke while the log was idle (the server restarted, or failed over) costs
    /// the next append nothing: nothing of it was sent, so it is tried again on a new connection.
    @Test func anAppendAfterTheConnectionsWereCutSucceedsOnANewOne() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        let log = try PostgresLog(PostgresAddress(url))
        defer { log.close() }
        try log.createStream("cut", policy: StreamPolicy())
        try log.append([1], to: "cut")
        let pids = try server.sql("SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'streamd'")
            .split(separator: "\n").joined(separator: ", ")
        #expect(!pids.isEmpty)
        try server.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (\(pids))")
        // pg_terminate_backend only signals: the connections broke once their sessions are gone.
        let remaining = "SELECT count(*) FROM pg_stat_activity WHERE pid IN (\(pids))"
        #expect(pollUntil { (try? server.sql(remaining))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0" })
        #expect(try log.append([2], to: "cut").firstSequence == 2)
        #expect(try log.readAll("cut", from: .all).map(\.sequence) == [1, 2])
    }
    /// A statement the server refuses inside the commit fails the batch with the server's reason, stores
    /// nothing of it (on the first round trip or after the row locks alike), and the log goes on.
    @Test func aStatementRefusedInsideTheCommitStoresNothingAndTheLogGoesOn() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        let log = try PostgresLog(PostgresAddress(url))
        defer { log.close() }
        try log.createStream("guarded", policy: StreamPolicy())
        try server.sql(
            """
            CREATE FUNCTION refuse_three() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.count = 3 THEN RAISE EXCEPTION 'blocks of three are refused here'; END IF; RETURN NEW; END $$;
            CREATE TRIGGER refuse_three BEFORE INSERT ON streamd.blocks FOR EACH ROW EXECUTE FUNCTION refuse_three();
            """, database: database)
        try log.append([1], to: "guarded")
        // The first refusal comes in the one round trip of a stream this log wrote last; the second
        // after the row locks, since a failed batch forgets what the log knew.
        for _ in 0..<2 {
            let refusal = expectLogError(.postgres) { _ = try log.append(contentsOf: [[2], [3], [4]], to: "guarded") }
            #expect(refusal?.message.contains("blocks of three are refused here") == true)
            #expect(refusal?.sqlState == "P0001")
            #expect(try log.streamInfo("guarded")?.lastSequence == 1, "nothing of the refused batch was stored")
        }
        #expect(try log.append(contentsOf: [[2], [3]], to: "guarded").firstSequence == 2)
        #expect(try log.append([4], to: "guarded").firstSequence == 4)
        #expect(try log.readAll("guarded", from: .all).map(\.payload) == [[1], [2], [3], [4]])
    }

    /// Message ids are checked in the database, under the stream's row lock: an id stored through one
    /// log is refused through the other, naming its original, and of logs racing to store the same
    /// ids each id is stored once.
    @Test func anIdStoredThroughOneLogIsRefusedThroughTheOtherAndRacingLogsStoreEachIdOnce() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        #expect(first.checksMessageIDs)
        try first.createStream("orders", policy: StreamPolicy())
        let original = try first.append(.value, [Array("one".utf8)], messageIDs: ["order-1"], to: "orders", expectingLastSequence: nil)
        let refusal = expectLogError(.duplicateMessageID) {
            _ = try second.append(.value, [[2], [3]], messageIDs: ["order-2", "order-1"], to: "orders", expectingLastSequence: nil)
        }
        #expect(refusal?.duplicates == [1: StoredMessageID(id: "order-1", sequence: 1, timestamp: original.timestamp)])
        #expect(refusal?.message == "event 2 of the append carries message id \"order-1\", which stream \"orders\" stored as sequence 1; nothing was stored.")
        #expect(try second.streamInfo("orders")?.lastSequence == 1, "nothing of the refused append was stored")
        expectLogError(.invalidArgument) { _ = try second.append(.value, [[2], [3]], messageIDs: ["x", "x"], to: "orders", expectingLastSequence: nil) }

        let stored = try await withThrowingTaskGroup(of: Int.self) { group in
            for (writer, log) in [first, second, first, second].enumerated() {
                group.addTask {
                    try await onOwnThread {
                        var stored = 0
                        for index in 0..<100 {
                            do {
                                _ = try log.append(.value, [Array("\(writer)".utf8)], messageIDs: ["race-\(index)"], to: "orders", expectingLastSequence: nil)
                                stored += 1
                            } catch let error as EventLogError where error.code == .duplicateMessageID {}
                        }
                        return stored
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(stored == 100, "each of the 100 ids was stored by one writer")
        let events = try first.readAll("orders", from: .all)
        #expect(events.count == 101 && events.map(\.sequence) == Array(1...101))
    }

    /// The first log numbers its next commit from the row as it wrote it, without a look: the other
    /// log's deletion is found in that commit (nothing stored, "no stream"), and so is a stream made
    /// anew under the name (numbered from 1).
    @Test func aLogAppendingToAStreamAnotherDeletedIsToldAndFindsOneMadeAgain() throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        try first.createStream("gone", policy: StreamPolicy())
        try first.append([1], to: "gone")
        try second.deleteStream("gone")
        expectLogError(.streamNotFound) { try first.append([2], to: "gone") }
        _ = try second.createStream("gone", policy: StreamPolicy())
        try first.append([3], to: "gone")
        #expect(try first.append([4], to: "gone").firstSequence == 2)
        #expect(try second.readAll("gone", from: .all).map(\.payload) == [[3], [4]])
    }

    /// A commit larger than its stream's capacity stores only the blocks holding what the capacity
    /// keeps, and the row counts exactly their bytes.
    @Test func aCommitPastItsCapacityStoresOnlyTheBlocksKept() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let log = try PostgresLog(PostgresAddress(url))
        defer { log.close() }
        try log.createStream("small", policy: StreamPolicy(capacity: .last(10)))
        for round in 0..<2 {
            // 600 events: blocks of 256, 256 and 88; only the last holds the ten kept.
            try log.append(contentsOf: (0..<600).map { [UInt8(round), UInt8(truncatingIfNeeded: $0)] }, to: "small")
            let events = try log.readAll("small", from: .all)
            #expect(events.map(\.sequence) == Array(UInt64(600 * round + 591)...UInt64(600 * round + 600)))
            let blocks = "SELECT count(*), s.stored_bytes = sum(length(b.payload)) FROM streamd.streams s JOIN streamd.blocks b ON b.stream_id = s.id GROUP BY s.id"
            #expect(try server.sql(blocks, database: String(url.split(separator: "/").last!)) == "1|t\n")
        }
        #expect(try log.verify().isClean)
    }

    /// A log numbers a stream it wrote last from what it wrote, in one round trip: whatever another log
    /// did to the stream since (appends, a policy, a truncation, a conditional append it lost) is seen,
    /// and the append is numbered again from the stream as it is.
    @Test func aLogNumbersFromTheStreamAsItIsAfterAnotherMovedIt() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        try first.createStream("turns", policy: StreamPolicy())
        var expected: [[UInt8]] = []
        for turn in 0..<30 {
            let log = turn % 3 == 2 ? second : first
            let payloads = (0..<(turn % 4 + 1)).map { [UInt8(turn), UInt8($0)] }
            let receipt = try log.append(contentsOf: payloads, to: "turns")
            #expect(receipt.firstSequence == UInt64(expected.count + 1), "turn \(turn)")
            expected += payloads
        }
        // The other log sets a capacity, then truncates: the next append here keeps both.
        try second.updatePolicy(of: "turns", to: StreamPolicy(capacity: .last(40)))
        for index in 100..<110 {
            try first.append([UInt8(index)], to: "turns")
            expected.append([UInt8(index)])
            #expect(try first.streamInfo("turns")?.firstSequence == UInt64(expected.count - 39))
        }
        // Each of those commits dropped blocks past the capacity: the row's stored bytes still count
        // exactly the blocks left.
        let counted = "SELECT s.stored_bytes = sum(length(b.payload)) FROM streamd.streams s JOIN streamd.blocks b ON b.stream_id = s.id GROUP BY s.id"
        #expect(try server.sql(counted, database: String(url.split(separator: "/").last!)) == "t\n")
        let kept = UInt64(expected.count - 4)
        try second.truncate("turns", before: kept)
        try first.append([110], to: "turns")
        expected.append([110])
        // A conditional append expecting what the other log made the stream is taken, not refused.
        let last = try second.append([111], to: "turns").lastSequence
        expected.append([111])
        let receipt = try first.append(.value, [[112]], messageIDs: [], to: "turns", expectingLastSequence: last)
        #expect(receipt.firstSequence == last + 1)
        expected.append([112])
        #expect(throws: EventLogError.self) { try first.append(.value, [[113]], messageIDs: [], to: "turns", expectingLastSequence: last) }
        for log in [first, second] {
            let events = try log.readAll("turns", from: .all)
            #expect(events.map(\.payload) == Array(expected[Int(kept - 1)...]))
            #expect(events.map(\.sequence) == Array(kept...UInt64(expected.count)))
            #expect(try log.streamInfo("turns")?.firstSequence == kept)
        }
        #expect(try first.verify().isClean)
    }
}
