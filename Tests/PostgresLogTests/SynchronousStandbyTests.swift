import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// A commit waiting for a synchronous standby whose wait is cancelled (an administrator's
/// `pg_cancel_backend`, a `statement_timeout`) is stored on the primary alone: PostgreSQL says so only
/// in a warning, and the log answers the append with a retryable error instead of an acknowledgement.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct SynchronousStandbyTests {
    @Test func aCommitWhoseStandbyWaitIsCancelledIsStoredButNotAcknowledged() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let url = try server.makeDatabase()
        let log = try PostgresLog(PostgresAddress(url))
        defer { log.close() }
        try log.createStream("waits", policy: StreamPolicy())
        try log.append([1], to: "waits")
        // From now on every commit waits for a synchronous standby that never comes (until the end,
        // whatever happens, so that no commit is left waiting).
        try server.sql("ALTER SYSTEM SET synchronous_standby_names = 'absent'")
        try server.sql("SELECT pg_reload_conf()")
        var waitsForStandby = true
        defer {
            if waitsForStandby {
                _ = try? server.sql("ALTER SYSTEM RESET synchronous_standby_names")
                _ = try? server.sql("SELECT pg_reload_conf()")
            }
        }
        // On a thread of its own: the concurrency pool may be held by other tests for minutes. The
        // writer's server process takes the new setting once the reload's signal reaches it, which a
        // loaded machine may delay: an append committed before then is acknowledged as usual, and
        // another is tried. Only the writer's connection counts: the log's listener (`streamd listener`)
        // may commit too.
        let waiting = "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND application_name = 'streamd'"
        var stored: [[UInt8]] = [[1]]
        var attempt: (payload: [UInt8], work: BackgroundWork<AppendReceipt>)
        let deadline = ContinuousClock.now + patience
        while true {
            let number = stored.count + 1
            let payload = Array("\(number)".utf8)
            let work = BackgroundWork { try log.append(.value, [payload], messageIDs: ["id \(number)"], to: "waits", expectingLastSequence: nil) }
            attempt = (payload, work)
            #expect(pollUntil { work.isFinished || (try? server.sql(waiting))?.isEmpty == false }, "the commit waits for the standby")
            guard work.isFinished, ContinuousClock.now < deadline, (try? work.result()) != nil else { break }
            stored.append(payload)
            usleep(20_000)
        }
        try server.sql("SELECT pg_cancel_backend(pid) FROM (\(waiting)) AS w")
        var refusal: EventLogError?
        do {
            let receipt = try attempt.work.result(within: patience / .seconds(1))
            Issue.record("the append was acknowledged: \(receipt)")
        } catch {
            refusal = error as? EventLogError
        }
        #expect(refusal?.code == .unavailable)
        #expect(refusal?.message.contains("stored the append but warned while committing it (canceling wait for synchronous replication") == true, "\(String(describing: refusal))")
        #expect(refusal?.stream == "waits")
        try server.sql("ALTER SYSTEM RESET synchronous_standby_names")
        try server.sql("SELECT pg_reload_conf()")
        waitsForStandby = false
        // It is stored, and publishing it again with its id is answered with it.
        stored.append(attempt.payload)
        #expect(try log.readAll("waits", from: .all).map(\.payload) == stored)
        let again = expectLogError(.duplicateMessageID) {
            _ = try log.append(.value, [attempt.payload], messageIDs: ["id \(stored.count)"], to: "waits", expectingLastSequence: nil)
        }
        #expect(again?.duplicates[0]?.sequence == UInt64(stored.count))
        #expect(try log.append([99], to: "waits").firstSequence == UInt64(stored.count + 1))
    }
}
