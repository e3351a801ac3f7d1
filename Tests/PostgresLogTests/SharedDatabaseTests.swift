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
    @Test func appendsThroughTwoLogsTakeOneGapFreeSequence() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        let first = try PostgresLog(PostgresAddress(url))
        let second = try PostgresLog(PostgresAddress(url))
        defer { first.close(); second.close() }
        try first.createStream("shared", policy: StreamPolicy())
        let receipts = try await withThrowingTaskGroup(of: [AppendReceipt].self) { group in
            for (index, log) in [first, second, first, second].enumerated() {
                group.addTask {
                    try await onOwnThread {
                        try (0..<250).map { event in try log.append(Array("\(index)/\(event)".utf8), to: "shared") }
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(receipts.map(\.firstSequence).sorted() == Array(1...1_000))
        for log in [first, second] {
            let events = try log.readAll("shared", from: .all)
            #expect(events.map(\.sequence) == Array(1...1_000))
            #expect(Set(events.map(\.payload)).count == 1_000, "each event once")
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
        #expect(pollUntil(timeout: patience) { seen.withLock { $0.count } >= 201 })
        #expect(seen.withLock { $0 } == Array(1...201))
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
        #expect(pollUntil(timeout: patience) { seen.withLock { $0 } == [1] })
        // Every listener of the database loses its connection, and with it the notifications rung meanwhile.
        let cut = try server.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'streamd listener'")
        #expect(cut.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        for index in 2...20 { try publisher.append([UInt8(index)], to: "cut") }
        #expect(pollUntil(timeout: patience) { seen.withLock { $0.count } >= 20 })
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
        try other.enforceRetention()  // takes the lease: the events are a minute old at its clock
        #expect(try other.streamInfo("aged")?.count == 0)
    }
}
