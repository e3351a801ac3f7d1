import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// A server that vanishes without closing its connections (a host lost, a cable cut): the kernel
/// would wait some 15 minutes, so every connection sets a TCP user timeout and keepalives (30 s
/// unless the URL says otherwise). The server runs in a network namespace of its own, reached over a
/// veth pair whose far end the test takes down.
@Suite(.enabled(if: postgresAvailable && NetworkNamespace.unavailableReason == nil, "needs root, Debian's postgresql package and iproute2"))
struct LostServerTests {
    @Test func aServerThatVanishesSilentlyIsNoticedAndTheLogGoesOnWhenItIsBack() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let server = try PostgresServer(settings: ["listen_addresses": namespace.address], namespace: namespace)
        defer { server.stop() }
        // Connections from this side of the wire are trusted, as the Unix socket is.
        let hba = server.directory.path + "/data/pg_hba.conf"
        let rules = try String(contentsOfFile: hba, encoding: .utf8)
        try (rules + "host all streamd \(namespace.hostAddress)/32 trust\n").write(toFile: hba, atomically: false, encoding: .utf8)
        try server.sql("SELECT pg_reload_conf()")
        let database = try String(server.makeDatabase().split(separator: "/").last!)
        let url = "postgresql://streamd@\(namespace.address):\(server.port)/\(database)?tcp_user_timeout=2000&keepalives_idle=1&keepalives_interval=1&keepalives_count=2"
        // pg_reload_conf only signals the server: connections are refused until it has read the rule.
        var opened: PostgresLog?
        #expect(pollUntil {
            opened = try? PostgresLog(PostgresAddress(url))
            return opened != nil
        }, "the server takes connections over the link")
        let log = try #require(opened)
        defer { log.close() }
        try log.createStream("wire", policy: StreamPolicy())
        try log.append([1], to: "wire")

        try namespace.cut()
        let started = ContinuousClock.now
        let publish = BackgroundWork { try log.append([2], to: "wire") }
        var failure: EventLogError?
        do {
            let receipt = try publish.result(within: 120)
            Issue.record("acknowledged while the server could not be reached: \(receipt)")
        } catch {
            failure = error as? EventLogError
        }
        let waited = ContinuousClock.now - started
        #expect(failure?.code == .unavailable, "\(String(describing: failure))")
        #expect(failure?.message.contains("may or may not be stored") == true, "\(String(describing: failure))")
        #expect(waited < .seconds(60), "noticed after \(waited)")

        try namespace.mend()
        // The publish that failed may or may not be stored (its error said so); the next goes through
        // on a new connection once the link carries again, after whatever is there (with its id, so
        // that trying it again while the link comes back stores it once).
        var stored: UInt64?
        #expect(pollUntil {
            do {
                stored = try log.append(.value, [[3]], messageIDs: ["three"], to: "wire", expectingLastSequence: nil).lastSequence
            } catch let error as EventLogError where error.code == .duplicateMessageID {
                stored = error.duplicates[0]?.sequence
            } catch {
                return false
            }
            return true
        }, "a publish goes through once the link is back")
        let payloads = try log.readAll("wire", from: .all).map(\.payload)
        #expect(payloads == [[1], [3]] || payloads == [[1], [2], [3]], "\(payloads)")
        #expect(stored == UInt64(payloads.count))
    }
}
