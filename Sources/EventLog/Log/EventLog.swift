import Dispatch
import Foundation
import Synchronization

/// A durable, append-only log of named event streams in one SQLite file.
///
/// Appends from any thread are committed one commit at a time, by the log's writer thread or by a
/// synchronous appender that found the log idle; each commit takes everything queued since the
/// previous one into one transaction (group commit). An append returns only after its commit.
/// Events are stored in zlib-compressed, CRC-checked blocks. Reads run on their own connections,
/// concurrently with the writer. One `EventLog` should own a database file at a time; other processes
/// may read it, unless it was opened `exclusiveToProcess`. Timestamps are microseconds since the Unix epoch.
///
/// Thread-safety: Sendable; every method may be called from any thread.
///
/// ## Example
///
/// ```swift
/// let log = try EventLog(path: directory + "/events.sqlite")     // creates file and schema
/// try log.ensureStream("orders", policy: StreamPolicy(capacity: .last(100_000), maxAge: .seconds(86_400)))
/// let receipt = try log.append(Array(#"{"id":1}"#.utf8), to: "orders")  // returns after the commit
/// try log.read("orders", from: .last(10)) { event in print(event.sequence); return true }
/// ```
public final class EventLog: Sendable {
    /// The database file.
    public let path: String
    /// How the log was opened.
    public let options: EventLogOptions
    let queue: WriteQueue
    let readers: ReaderPool
    let observers = AppendObservers()
    let encoders: BlockEncoderPool
    private let writerFinished = DispatchSemaphore(value: 0)
    /// The writer, for synchronous appenders that lead a commit; nil for a read-only log.
    private let writer: WriterHandle?
    /// The scheduling policy of a journaled log's writer thread: `SCHED_BATCH` of `<linux/sched.h>`,
    /// which Glibc declares only under `_GNU_SOURCE`. The writer only moves acknowledged appends into
    /// the database: as a batch thread its wake-ups do not preempt the threads that answer, yet it
    /// keeps its fair share of the CPU. At nice 10 it measured the same within the noise (5
    /// alternating runs), but a busy neighbour at nice 0 took ten times its share, and reads and
    /// journal resets waited.
    package static let writerPolicy: Int32 = 3

    /// A journaled log's sequencer and its queue (see `Sequencer`); nil otherwise.
    private let sequencer: SequencerHandle?
    private let front: WorkQueue<SequencerJob>?
    private let sequencerFinished = DispatchSemaphore(value: 0)
    /// Checkpoints the WAL beside the writer; nil for a read-only log.
    let checkpointer: BackgroundCheckpointer?
    /// The bytes given back to the file system since the log was opened (`SpaceReclaimer`, `compact()`).
    let reclaimTotals = ReclaimTotals()
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
        try options.checkRanges(path: path)
        if options.journal && !options.readOnly && !options.exclusiveToProcess {
            throw EventLogError(
                .invalidArgument,
                "a journaled log must be exclusive to its process (EventLogOptions.exclusiveToProcess): other processes would not see the appends its journal holds.",
                path: path)
        }
        let queue = WriteQueue()
        self.queue = queue
        let backlog = options.journal && !options.readOnly ? JournalBacklog { queue.push(.ingest) } : nil
        encoders = BlockEncoderPool(options: options)
        readers = ReaderPool(path: path, options: options, backlog: backlog)
        let connection = try SQLiteConnection(
            path: path, readOnly: options.readOnly, create: !options.readOnly,
            busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, exclusiveToProcess: options.exclusiveToProcess,
            followsSymlinks: options.followsSymlinks, immutable: options.immutable)
        if !options.readOnly && connection.isReadOnly {
            throw EventLogError(
                .readOnly,
                "\(path) cannot be opened for writing (the file or its directory is read-only); fix its permissions or open the log with options.readOnly = true to read it.",
                path: path)
        }
        try SchemaMigrator.prepare(connection, readOnly: options.readOnly)
        if options.readOnly {
            queue.close()
            writer = nil
            checkpointer = nil
            sequencer = nil
            front = nil
            try Journal.refuseUnstored(besideReadOnly: connection, databasePath: path)
            return
        }
        try EventLog.configureWriter(connection, options: options)
        let marks = try StreamMarks.openChecked(
            connection, databasePath: path, accept: options.acceptLostEvents, now: options.clock())
        let logWriter = try LogWriter(connection: connection, options: options, observers: observers)
        logWriter.marks = marks
        if options.diskReserveBytes > 0 {
            let fullDisk = FullDiskGuard(
                reserve: try DiskReserve.open(forDatabase: path, bytes: options.diskReserveBytes),
                path: path, observer: options.storageObserver)
            logWriter.fullDisk = fullDisk
            if let backlog {
                fullDisk.changed = { backlog.setDiskFull($0) }
                fullDisk.storePending = { [unowned logWriter] in
                    logWriter.ingest()
                    return backlog.isCaughtUp
                }
            }
            // A reserve that cannot be allocated (a disk that filled while the log was closed) is
            // a full disk from the start: deletes and truncations work, appends wait for room.
            if !fullDisk.reserve.refill() { _ = fullDisk.filled(connection) }
        }
        let reclaimer = SpaceReclaimer(
            queue: queue, thresholdBytes: options.reclaimThresholdBytes, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            totals: reclaimTotals)
        logWriter.reclaimer = reclaimer
        // What a journal left behind goes in first, so that no sequence it acknowledged is taken again;
        // on a full disk a journaled log keeps what does not fit waiting (and refuses appends) until
        // there is room.
        let journal = try Journal.open(forDatabase: path, durability: options.durability, creating: backlog != nil)
        var unstored: [JournaledAppend] = []
        if let journal {
            unstored = try logWriter.replay(journal, keepingUnstored: backlog != nil && logWriter.fullDisk != nil)
            if unstored.isEmpty { try journal.resetAndShrink() }
        }
        if let backlog, let journal {
            logWriter.backlog = backlog
            let front = WorkQueue<SequencerJob>()
            self.front = front
            sequencer = SequencerHandle(Sequencer(
                journal: journal, backlog: backlog, unstored: unstored, observers: observers, options: options, path: path
            ) { work in queue.push(.admin(work)) })
        } else {
            front = nil
            sequencer = nil
        }
        let writer = WriterHandle(logWriter)
        self.writer = writer
        // With `full` durability every commit waits for an fsync anyway, and a background pass's fsyncs
        // would compete with them: SQLite's own checkpoint, inside a commit, costs less there.
        if options.durability == .full {
            try connection.execute("PRAGMA wal_autocheckpoint = \(max(1, options.checkpointPages))")
            checkpointer = nil
        } else {
            // Last, so nothing after it can fail and leave its thread running.
            let queue = self.queue
            let checkpointer = try BackgroundCheckpointer(path: path, options: options) { pass in
                queue.push(.admin { _ in pass() })
            }
            checkpointer.watch(connection)
            self.checkpointer = checkpointer
            let emptyWAL = reclaimer.runEnded
            reclaimer.runEnded = { connection in
                // Between passes: a pass in progress holds SQLite's checkpoint lock.
                try? checkpointer.betweenPasses { () throws(EventLogError) in emptyWAL(connection) }
            }
            if let fullDisk = logWriter.fullDisk {
                let plain = fullDisk.checkpoint
                fullDisk.checkpoint = { connection throws(EventLogError) in try checkpointer.betweenPasses { () throws(EventLogError) in try plain(connection) } }
            }
        }
        let finished = writerFinished
        let journaled = backlog != nil
        let thread = Thread {
            nameCurrentThread("log-writer")
            if journaled {
                var parameters = sched_param()
                _ = sched_setscheduler(0, EventLog.writerPolicy, &parameters)
            }
            writer.writer?.run(queue)
            finished.signal()
        }
        writerStarted.store(true, ordering: .releasing)
        thread.start()
        if let front, let sequencer {
            let finished = sequencerFinished
            let thread = Thread {
                nameCurrentThread("log-sequencer")
                sequencer.sequencer?.runQueue(front)
                finished.signal()
            }
            thread.start()
        }
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
        // Debian's SQLite zeroes every freed page by default (secure_delete = ON), so deleting a 40 MB
        // stream wrote 40 MB of WAL: a delete could not free space on a full disk. FAST zeroes deleted
        // rows inside the pages it writes anyway, and puts freed pages on the freelist unwritten.
        try connection.execute("PRAGMA secure_delete = FAST")
        if let pages = options.maximumPageCount { _ = try connection.integer("PRAGMA max_page_count = \(pages)") }
        // A WAL that grew past its usual size (a reclaim run, a long reader) is cut back to it when it
        // next starts over, so its space returns to the file system too.
        let pageSize = try connection.integer("PRAGMA page_size")
        _ = try connection.integer("PRAGMA journal_size_limit = \(Int64(max(1, options.checkpointPages)) * pageSize)")
    }

    deinit { close() }

    /// Finishes queued writes, stops the writer and closes idle connections. Later calls throw `closed`.
    /// Call it from anywhere but an append's completion handler (which runs while a commit is held).
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // A journaled log numbers what was queued, then the writer stores it, then the journal empties.
        if let front {
            front.close()
            if writerStarted.load(ordering: .acquiring) { sequencerFinished.wait() }
        }
        queue.close()
        if writerStarted.load(ordering: .acquiring) {
            writerFinished.wait()
            writer?.release()
        }
        sequencer?.finish()
        checkpointer?.stop()
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

    /// Queues `request`, or fails it at once if the log is closed or read-only. With `lead`, a caller
    /// that finds nobody committing commits on its own thread (the synchronous API does this).
    func submit(_ request: AppendRequest, lead: Bool = false) {
        if let front {
            switch front.pushOrLead(.append(request), mayLead: lead) {
            case .queued:
                break
            case .lead:
                sequencer?.sequencer?.lead(front, .append(request))
            case .refused:
                request.completion(.failure(closedError()))
            }
            return
        }
        switch queue.pushOrLead(.append(request), mayLead: lead && writer != nil) {
        case .queued:
            break
        case .lead:
            writer?.writer?.lead(queue, .append(request))
        case .refused:
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
            func attempt() throws -> R { transactional ? try writer.transaction { try work(writer) } : try work(writer) }
            do {
                outcome = .success(try attempt())
            } catch let error as EventLogError where error.code == .diskFull && writer.fullDisk?.filled(writer.connection) == true {
                // The reserve was given back: deletes and truncations have room now.
                do { outcome = .success(try attempt()) } catch { outcome = .failure(error as? EventLogError ?? EventLogError(.io, "\(error)")) }
            } catch {
                outcome = .failure(error as? EventLogError ?? EventLogError(.io, "\(error)"))
            }
            if case .success = outcome { _ = writer.fullDisk?.stillFull(on: writer.connection, now: true) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        if let front {
            // No append is numbered while the job changes the catalog; the writer stores the journaled
            // ones before it runs the job.
            let queue = self.queue, ran = DispatchSemaphore(value: 0)
            let pushed = front.push(.exclusive {
                if queue.push(job) { done.wait() }
                ran.signal()
            })
            guard pushed else { throw closedError() }
            ran.wait()
        } else {
            guard queue.push(job) else { throw options.readOnly ? readOnlyError() : closedError() }
            done.wait()
        }
        guard let outcome = result.withLock({ $0 }) else { throw closedError() }
        return try outcome.get()
    }

    /// Waits for a completion-handler operation, for the synchronous API.
    func wait<R: Sendable>(_ start: (@escaping @Sendable (Result<R, EventLogError>) -> Void) -> Void) throws(EventLogError) -> R {
        try waitForCompletion(start)
    }
}

/// Starts a completion-handler operation with `start` and blocks until its completion runs: the
/// synchronous API of a log whose appends are answered through completions (both logs').
package func waitForCompletion<R: Sendable>(_ start: (@escaping @Sendable (Result<R, EventLogError>) -> Void) -> Void) throws(EventLogError) -> R {
    let result = Mutex<Result<R, EventLogError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    start { outcome in
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// Shares the log's `LogWriter` between the writer thread and synchronous appenders.
///
/// `@unchecked Sendable` is safe because only the thread holding `WriteQueue`'s committer role (its
/// `draining` flag, taken and released under the queue's mutex) touches the writer, so uses never
/// overlap and each one happens-after the previous through that mutex.
/// `release` runs only after the writer thread ended and the queue refuses new committers.
final class WriterHandle: @unchecked Sendable {
    private(set) var writer: LogWriter?
    init(_ writer: LogWriter) { self.writer = writer }

    /// Drops the writer, closing the write connection.
    func release() { writer = nil }
}
