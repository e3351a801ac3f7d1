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
/// In a journaled log a reader first waits until the appends acknowledged before it began are in the
/// database (`catchUp`), so what a reader sees never lags what was acknowledged.
///
/// Thread-safety: Sendable; the idle list sits behind a Mutex.
final class ReaderPool: Sendable {
    private let idle = Mutex<[ReaderConnection]>([])
    private let path: String
    private let options: EventLogOptions
    private let closed = Atomic<Bool>(false)
    /// A journaled log's appends between journal and database; nil otherwise.
    private let backlog: JournalBacklog?
    private static let keptIdle = 8

    init(path: String, options: EventLogOptions, backlog: JournalBacklog? = nil) {
        self.path = path
        self.options = options
        self.backlog = backlog
    }

    /// Waits until every append acknowledged so far is in the database (at once unless journaled); for
    /// `catalog` reads, not while a full disk keeps them out (see `JournalBacklog.waitUntilStored`).
    func catchUp(catalog: Bool = false) throws(EventLogError) {
        do {
            try backlog?.waitUntilStored(allowingFullDisk: catalog)
        } catch {
            throw EventLogError(
                error.code,
                "reads are refused until the log can move the appends it acknowledged from its journal into the database, which failed: \(error.message)",
                path: path)
        }
    }

    /// An idle reader, or a new one, once the database holds every append acknowledged so far.
    func checkOut(catalog: Bool = false) throws(EventLogError) -> ReaderConnection {
        guard !closed.load(ordering: .acquiring) else {
            throw EventLogError(.closed, "the event log was closed; open it again to read.", path: path)
        }
        try catchUp(catalog: catalog)
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

    func withReader<R>(catalog: Bool = false, _ body: (ReaderConnection) throws -> R) throws -> R {
        let reader = try checkOut(catalog: catalog)
        defer { checkIn(reader) }
        return try body(reader)
    }

    /// Closes the idle connections; readers still checked out close when their holder lets go.
    func close() {
        closed.store(true, ordering: .releasing)
        idle.withLock { $0.removeAll() }
    }
}
