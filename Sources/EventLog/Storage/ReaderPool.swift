import Synchronization

/// A reader's connection and its block decoder, checked out of the pool by one caller at a time.
///
/// Thread-safety: `@unchecked Sendable` because the pool moves it between threads, but only one
/// caller holds it at any time (it is out of the pool while in use), so it is never shared.
final class ReaderConnection: @unchecked Sendable {
    let connection: SQLiteConnection
    let decoder: BlockDecoder

    init(connection: SQLiteConnection) throws(EventLogError) {
        self.connection = connection
        decoder = try BlockDecoder()
    }
}

/// Read connections for concurrent readers: WAL lets each read its own snapshot while the writer commits.
///
/// Thread-safety: Sendable; the idle list sits behind a Mutex.
final class ReaderPool: Sendable {
    private let idle = Mutex<[ReaderConnection]>([])
    private let path: String
    private let options: EventLogOptions
    private let closed = Atomic<Bool>(false)
    private static let keptIdle = 8

    init(path: String, options: EventLogOptions) {
        self.path = path
        self.options = options
    }

    /// An idle reader, or a new one.
    func checkOut() throws(EventLogError) -> ReaderConnection {
        guard !closed.load(ordering: .acquiring) else {
            throw EventLogError(.closed, "the event log was closed; open it again to read.", path: path)
        }
        if let reader = idle.withLock({ $0.popLast() }) { return reader }
        let connection = try SQLiteConnection(
            path: path, readOnly: options.readOnly, create: false,
            busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, exclusiveToProcess: options.exclusiveToProcess,
            followsSymlinks: options.followsSymlinks, immutable: options.immutable)
        if !options.readOnly { try connection.execute("PRAGMA query_only = ON") }
        return try ReaderConnection(connection: connection)
    }

    /// Gives a reader back for reuse (or lets it close when enough are idle or the pool closed).
    func checkIn(_ reader: ReaderConnection) {
        guard !closed.load(ordering: .acquiring) else { return }
        idle.withLock { idle in
            if idle.count < ReaderPool.keptIdle { idle.append(reader) }
        }
    }

    func withReader<R>(_ body: (ReaderConnection) throws -> R) throws -> R {
        let reader = try checkOut()
        defer { checkIn(reader) }
        return try body(reader)
    }

    /// Closes the idle connections; readers still checked out close when their holder lets go.
    func close() {
        closed.store(true, ordering: .releasing)
        idle.withLock { $0.removeAll() }
    }
}
