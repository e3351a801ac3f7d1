import EventLog
import Foundation
import StreamModel
import Synchronization

/// An event log in a PostgreSQL database: the same streams, sequences, policies, compressed blocks
/// and live tail as the SQLite `EventLog`, shared by every process that opens the same database.
///
/// Appends go to one writer thread, which commits everything that arrived meanwhile in one
/// transaction (group commit): it locks the rows of the streams appended to, numbers the events after
/// each stream's last, inserts their blocks, moves the rows and rings the `streamd` notification
/// channel, then answers each append once PostgreSQL committed. The row lock makes the appends of
/// every process take a stream's sequences in turn, gap-free. Reads and catalog work run on pooled
/// connections beside it. Commits reach `observeAppends` handlers through `PostgresTail`, in sequence
/// order, whichever process made them.
///
/// Each process that opens the log holds its own connections: one for the writer, one listening,
/// one for the retention lease, and at most `PostgresConnectionPool.limit` for reads and catalog work
/// (of which `idleLimit` stay open between uses).
/// Thread-safety: Sendable; every method may be called from any thread.
public final class PostgresLog: Sendable {
    /// The database, as its URL names it (`description` hides the password).
    public let address: PostgresAddress
    /// The options it was opened with (block sizes, compression level, event size limit, clock).
    public let options: EventLogOptions
    let pool: PostgresConnectionPool
    let queue = WorkQueue<AppendRequest>()
    let observers: AppendObservers
    let tail: PostgresTail
    let retentionLease: PostgresRetentionLease
    private let writerDone = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)

    /// Opens the log in the database `address` names, creating its tables if the database has none.
    ///
    /// - Throws: `unavailable` when the server cannot be reached, `newerSchema` for tables of a newer
    ///   streamd, `readOnly` on a standby, or another `postgres` failure.
    public init(_ address: PostgresAddress, options: EventLogOptions = EventLogOptions()) throws {
        try options.checkRanges(path: address.description)
        self.address = address
        self.options = options
        pool = PostgresConnectionPool(address)
        let writerConnection = try PostgresConnection(address)
        try PostgresSchema.prepare(on: writerConnection)
        observers = AppendObservers()
        let encoder = try BlockEncoder(options: options)
        let decoder = try BlockDecoder()
        // The last step that can fail, and the first that starts a thread. Should it fail, the log is
        // not whole, so no deinit (whose `close` waits for the writer) runs.
        tail = try PostgresTail(address: address, observers: observers, pool: pool)
        retentionLease = PostgresRetentionLease(address: address)
        let writer = Handover(PostgresWriter(connection: writerConnection, options: options, encoder: encoder, decoder: decoder, tail: tail))
        let queue = self.queue
        let done = writerDone
        let thread = Thread {
            nameCurrentThread("pg-writer")
            writer.value.runQueue(queue)
            done.signal()
        }
        thread.start()
    }

    /// Whether its commits ring `NOTIFY streamd`: only while another process listens (see `PostgresTail`).
    package var ringsForOthers: Bool { tail.ringsForOthers }

    /// Removes the streamd tables of the database `address` names, and with them every stream: for
    /// `streambench --db`, which starts each run on empty tables. No log may be open on it.
    package static func removeTables(_ address: PostgresAddress) throws {
        try PostgresSchema.remove(on: PostgresConnection(address))
    }

    /// Stops taking appends, waits for the writer to answer what it holds, and closes the connections.
    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        queue.close()
        writerDone.wait()
        tail.close()
        retentionLease.release()
        pool.close()
    }

    deinit { close() }

    /// Moves a value that is not Sendable to the one thread that uses it from then on.
    ///
    /// `@unchecked Sendable` is safe because the creator gives the value up when it hands it over.
    private final class Handover<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    func closedError() -> EventLogError {
        EventLogError(.closed, "the event log in PostgreSQL at \(address) is closed; open it again.")
    }
}

extension PostgresLog: LogStorage {}
