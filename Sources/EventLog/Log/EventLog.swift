import Dispatch
import Foundation
import Synchronization

/// A durable, append-only log of named event streams in one SQLite file.
///
/// Appends from any thread are committed by one writer thread that groups everything queued since its
/// previous commit into one transaction (group commit); an append returns only after its commit.
/// Events are stored in zlib-compressed, CRC-checked blocks. Reads run on their own connections,
/// concurrently with the writer. One `EventLog` should own a database file at a time; other processes
/// may read it. Timestamps are microseconds since the Unix epoch.
///
/// Thread-safety: Sendable; every method may be called from any thread.
public final class EventLog: Sendable {
    /// The database file.
    public let path: String
    /// How the log was opened.
    public let options: EventLogOptions
    let queue = WriteQueue()
    let readers: ReaderPool
    let observers = AppendObservers()
    private let writerFinished = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)
    /// False when init failed or the log is read-only: then there is no writer thread to wait for.
    private let writerStarted = Atomic<Bool>(false)

    /// Opens the log at `path`, creating the file and its schema if it does not exist.
    ///
    /// - Throws: `EventLogError` with code `notADatabase`, `foreignDatabase`, `newerSchema`, `readOnly`
    ///   (the file cannot be written and `options.readOnly` is false), `io`, or `sqlite`.
    public init(path: String, options: EventLogOptions = EventLogOptions()) throws {
        self.path = path
        self.options = options
        guard (1...9).contains(options.compressionLevel), options.maximumEventsPerBlock >= 1, options.maximumBlockBytes >= 64 else {
            throw EventLogError(.invalidArgument, "options out of range: compressionLevel must be 1...9, maximumEventsPerBlock ≥ 1, maximumBlockBytes ≥ 64.", path: path)
        }
        readers = ReaderPool(path: path, readOnly: options.readOnly, busyTimeout: options.busyTimeoutMilliseconds)
        let connection = try SQLiteConnection(
            path: path, readOnly: options.readOnly, create: !options.readOnly,
            busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        if !options.readOnly && connection.isReadOnly {
            throw EventLogError(
                .readOnly,
                "\(path) cannot be opened for writing (the file or its directory is read-only); fix its permissions or open the log with options.readOnly = true to read it.",
                path: path)
        }
        try SchemaMigrator.prepare(connection, readOnly: options.readOnly)
        if options.readOnly {
            queue.close()
            return
        }
        try EventLog.configureWriter(connection, options: options)
        let writer = try LogWriter(connection: connection, options: options, observers: observers)
        let handoff = Handoff(writer)
        let queue = self.queue, finished = writerFinished
        let thread = Thread {
            handoff.value.run(queue)
            finished.signal()
        }
        thread.name = "streamd.eventlog.writer"
        writerStarted.store(true, ordering: .releasing)
        thread.start()
    }

    private static func configureWriter(_ connection: SQLiteConnection, options: EventLogOptions) throws(EventLogError) {
        let mode = try connection.text("PRAGMA journal_mode = WAL")
        guard mode.lowercased() == "wal" else {
            throw EventLogError(
                .io,
                "SQLite would not switch \(connection.path) to WAL mode (it answered \"\(mode)\"); the log needs a local file system that supports shared memory.",
                path: connection.path)
        }
        try connection.execute("PRAGMA synchronous = \(options.durability.synchronous)")
        try connection.execute("PRAGMA wal_autocheckpoint = \(options.checkpointPages)")
        if let pages = options.maximumPageCount { _ = try connection.integer("PRAGMA max_page_count = \(pages)") }
    }

    deinit { close() }

    /// Finishes queued writes, stops the writer and closes idle connections. Later calls throw `closed`.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.close()
        if writerStarted.load(ordering: .acquiring) { writerFinished.wait() }
        observers.drain()
        readers.close()
    }

    // MARK: Plumbing for the public API in the extensions

    func closedError() -> EventLogError {
        EventLogError(
            .closed,
            options.readOnly ? "the event log at \(path) was opened read-only; open it without readOnly to write." : "the event log at \(path) is closed; open it again.",
            path: path)
    }

    /// Queues `job`, or fails it at once if the log is closed or read-only.
    func submit(_ request: AppendRequest) {
        if !queue.push(.append(request)) {
            request.completion(.failure(options.readOnly ? readOnlyError() : closedError()))
        }
    }

    func readOnlyError() -> EventLogError {
        EventLogError(.readOnly, "the event log at \(path) was opened read-only; open it without readOnly to write.", path: path)
    }

    /// Runs `work` on the writer thread in its own transaction and waits for the result.
    func administer<R: Sendable>(
        transactional: Bool = true, _ work: @escaping @Sendable (LogWriter) throws -> R
    ) throws(EventLogError) -> R {
        let result = Mutex<Result<R, EventLogError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = WriteJob.admin { writer in
            let outcome: Result<R, EventLogError>
            do {
                outcome = .success(transactional ? try writer.transaction { try work(writer) } : try work(writer))
            } catch {
                outcome = .failure(error as? EventLogError ?? EventLogError(.io, "\(error)"))
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        guard queue.push(job) else { throw options.readOnly ? readOnlyError() : closedError() }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Waits for a completion-handler operation, for the synchronous API.
    func wait<R: Sendable>(_ start: (@escaping @Sendable (Result<R, EventLogError>) -> Void) -> Void) throws(EventLogError) -> R {
        let result = Mutex<Result<R, EventLogError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// Moves a non-Sendable value to another thread exactly once.
///
/// `@unchecked Sendable` is safe because the creator gives the value up when it builds the handoff
/// (it keeps no other reference), so only the receiving thread ever touches it.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
