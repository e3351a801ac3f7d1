import EventLog
import Synchronization

/// Which process of those sharing a database applies the age limits of streams nobody appends to:
/// the one holding a session-level advisory lock, on a connection kept for it. The lock goes with the
/// connection, so when its holder stops or dies another process takes it at its next try.
///
/// Appends apply their own stream's limits whoever makes them; this only keeps every daemon's timer
/// from doing the same sweep at once.
/// Thread-safety: Sendable; the connection sits behind a Mutex.
final class PostgresRetentionLease: Sendable {
    /// The advisory lock's key (`'STRR'`).
    static let key: Int64 = 0x5354_5252

    private let address: PostgresAddress
    private let connection = Mutex<PostgresConnection?>(nil)

    init(address: PostgresAddress) { self.address = address }

    /// Whether this process holds the lease, trying to take it when it does not. One connection is
    /// kept for it either way, and asked each time: a holder whose connection died (a failover) no
    /// longer holds the lock, and finds out here.
    func isHeld() -> Bool {
        connection.withLock { kept in
            if kept == nil || kept?.isOpen == false { kept = try? PostgresConnection(address, name: "streamd retention") }
            guard let current = kept else { return false }
            // The holder asks pg_locks rather than take the lock again, which would count it twice.
            let held = try? current.execute(
                """
                SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE \(PostgresAdvisoryLock.condition) AND pid = pg_backend_pid())
                    THEN true ELSE pg_try_advisory_lock($3) END
                """,
                PostgresAdvisoryLock.parameters(Self.key) + [.int64(Self.key)])
            return held?.bool(0, 0) ?? false
        }
    }

    /// Gives the lease up (closing its connection releases the lock).
    func release() { connection.withLock { $0 = nil } }
}
