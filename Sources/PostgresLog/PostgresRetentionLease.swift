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

    /// Whether this process holds the lease, trying to take it when it does not.
    func isHeld() -> Bool {
        connection.withLock { held in
            if let current = held, current.isOpen { return true }
            held = nil
            guard let made = try? PostgresConnection(address, name: "streamd retention"),
                (try? made.execute("SELECT pg_try_advisory_lock($1)", [.int64(Self.key)]).bool(0, 0)) == true
            else { return false }
            held = made
            return true
        }
    }

    /// Gives the lease up (closing its connection releases the lock).
    func release() { connection.withLock { $0 = nil } }
}
