import Dispatch
import EventLog
import Synchronization

/// Idle connections to one server, lent to one caller at a time: reads and catalog work take one,
/// so they run beside the writer's commits and each other.
///
/// A connection that broke is dropped, not put back; the next caller connects anew (to whichever
/// host of the URL is the primary then). At most `limit` connections are lent at once, so a crowd of
/// readers (subscribers catching up) queues here instead of exhausting the server's
/// `max_connections`; at most `idleLimit` idle ones are kept.
/// Thread-safety: Sendable; the idle list sits behind a Mutex, and a lent connection is used only by
/// the caller that took it until it comes back.
final class PostgresConnectionPool: Sendable {
    /// `@unchecked Sendable`: a connection moves between threads through the pool but is never shared.
    private final class Entry: @unchecked Sendable {
        let connection: PostgresConnection
        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    static let idleLimit = 8
    /// The most connections lent at once.
    static let limit = 16

    let address: PostgresAddress
    private let idle = Mutex<[Entry]>([])
    private let closed = Atomic<Bool>(false)
    private let lendable = DispatchSemaphore(value: PostgresConnectionPool.limit)

    init(_ address: PostgresAddress) { self.address = address }

    /// Runs `body` with a connection of the pool.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .relaxed) else {
            throw EventLogError(.closed, "the event log in PostgreSQL at \(address) is closed; open it again.")
        }
        lendable.wait()
        defer { lendable.signal() }
        var reused = idle.withLock { $0.popLast() }
        // One whose session the server ended while it was idle is dropped for a new one.
        while let entry = reused, !entry.connection.isUsableAfterIdling { reused = idle.withLock { $0.popLast() } }
        let entry = try reused ?? Entry(PostgresConnection(address))
        defer {
            if entry.connection.isOpen, !closed.load(ordering: .relaxed) {
                idle.withLock { if $0.count < Self.idleLimit { $0.append(entry) } }
            }
        }
        return try body(entry.connection)
    }

    /// Closes the idle connections and refuses further use.
    func close() {
        closed.store(true, ordering: .relaxed)
        idle.withLock { $0.removeAll() }
    }
}
