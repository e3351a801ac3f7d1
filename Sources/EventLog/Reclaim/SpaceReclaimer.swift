import CSQLite
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Gives the pages that deletions freed back to the file system, in small steps between commits.
///
/// A log created with `PRAGMA auto_vacuum = INCREMENTAL` keeps freed pages on SQLite's freelist, where
/// appends reuse them, until `PRAGMA incremental_vacuum(N)` moves the last N pages of the file into
/// free ones and cuts the file's end. One large step would hold every publish behind it (moving a page
/// costs its read, its write to the WAL and the update of its parent), so the writer runs one step of
/// a few hundred pages as an admin job, and queues the next behind whatever arrived meanwhile: a
/// publish waits for one step at most. Each step's duration sets the next one's size, aiming at about
/// a millisecond. A run starts when the freelist holds `reclaimThresholdBytes`, looked at after each
/// admin job that deleted something (rm, truncate, a retention pass) and after commits once their own
/// retention deleted that much, so the pages that steady retention frees, which the next appends take
/// again, are left alone. The file shrinks
/// when a checkpoint copies the WAL to its end (SQLite cuts the file then): the run's end does that
/// and empties the WAL, unless a reader is in the way (then it does not wait, and the next checkpoint
/// cuts the file; the WAL is cut back to `journal_size_limit` when it next starts over).
///
/// A full disk stops runs (each step writes moved pages to the WAL; the room left is for deletes),
/// and a step that finds no room ends its run without entering the full state.
///
/// Thread-safety: not Sendable; the log's writer owns it and uses it on its thread only. `totals` is
/// Sendable and shared with the log.
final class SpaceReclaimer {
    /// Bytes given back so far, by steps and by compactions; read by the log from any thread.
    let totals: ReclaimTotals
    private let queue: WriteQueue
    private let threshold: Int64
    /// Runs when a run of steps ends, to copy the WAL and so cut the file, then empty the WAL (see
    /// `emptyWALWithoutWaiting`; the log wraps it between background checkpoint passes).
    var runEnded: (SQLiteConnection) -> Void
    /// Bytes deleted since the freelist was last looked at.
    private var freedSinceCheck: Int64 = 0
    /// An admin job (rm, truncate, retention) deleted something: look at the freelist after it, as the
    /// stored bytes undercount what many small blocks free (their rows' keys and headers).
    private var lookNow = false
    /// A step is queued or running.
    private var running = false
    /// Pages per step, adapted to the step's duration.
    private var stepPages: Int64 = 128
    /// 2 (incremental) when steps can give pages back; read once.
    private var autoVacuum: Int64?

    /// Aimed duration of one step: a publish queued behind it waits about this long.
    static let stepTargetNanoseconds: UInt64 = 1_000_000

    init(queue: WriteQueue, thresholdBytes: Int, busyTimeoutMilliseconds: Int32, totals: ReclaimTotals) {
        self.queue = queue
        self.threshold = Int64(thresholdBytes)
        self.totals = totals
        runEnded = { connection in Self.emptyWALWithoutWaiting(connection, busyTimeoutMilliseconds: busyTimeoutMilliseconds) }
    }

    /// Copies the WAL into the database (SQLite then cuts the database file to its pages) and empties
    /// the WAL, unless a reader is in the way: then it does nothing rather than wait, and the next
    /// checkpoint cuts the file. The background checkpointer has usually copied most frames already,
    /// so this holds the writer for little more than an fsync. Without it an idle log would keep the
    /// WAL that the run wrote until its next write.
    static func emptyWALWithoutWaiting(_ connection: SQLiteConnection, busyTimeoutMilliseconds: Int32) {
        sqlite3_busy_timeout(connection.handle, 0)
        defer { sqlite3_busy_timeout(connection.handle, busyTimeoutMilliseconds) }
        _ = try? connection.integer("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Notes that a deletion freed about `bytes` (the stored bytes of the blocks it removed).
    func noteFreed(_ bytes: Int64) {
        freedSinceCheck &+= max(0, bytes)
    }

    /// After an admin job ran: if it deleted anything, the freelist is looked at after this batch.
    func adminJobRan() {
        if freedSinceCheck > 0 { lookNow = true }
    }

    /// After a commit or an admin job: starts a run when the freelist holds `threshold` bytes, looked at
    /// after admin deletions, and after commits once their retention deleted that much.
    func startIfDue(_ writer: LogWriter) {
        guard threshold > 0, !running, lookNow || freedSinceCheck >= threshold else { return }
        freedSinceCheck = 0
        lookNow = false
        if writer.fullDisk?.isFull == true { return }
        guard (try? incremental(writer.connection)) == true,
              let free = try? freeBytes(writer.connection), free >= threshold
        else { return }
        running = true
        queueStep()
    }

    /// One step of an automatic run; queues the next while pages remain and steps make progress.
    private func continueRun(_ writer: LogWriter) {
        do {
            let outcome = try step(writer.connection)
            if outcome.remainingPages > 0, outcome.reclaimedPages > 0, writer.fullDisk?.isFull != true {
                queueStep()
                return
            }
        } catch {
            // A step that finds no room for its WAL frames (a disk just out of its full state, the
            // reserve taken back) is rolled back and ends the run quietly: the log is not full, its
            // appends reuse the freed pages, and the next large deletion starts a run again.
        }
        running = false
        runEnded(writer.connection)
    }

    private func queueStep() {
        if !queue.push(.admin { writer in writer.reclaimer?.continueRun(writer) }) { running = false }
    }

    /// Whether the database can give pages back in steps (created with incremental auto-vacuum).
    func incremental(_ connection: SQLiteConnection) throws(EventLogError) -> Bool {
        if let autoVacuum { return autoVacuum == 2 }
        let mode = try connection.integer("PRAGMA auto_vacuum")
        autoVacuum = mode
        return mode == 2
    }

    /// Forgets the auto-vacuum mode read before (a full VACUUM changed it).
    func modeChanged() { autoVacuum = nil }

    /// Bytes of the pages on the freelist.
    func freeBytes(_ connection: SQLiteConnection) throws(EventLogError) -> Int64 {
        try connection.integer("PRAGMA freelist_count") * connection.integer("PRAGMA page_size")
    }

    /// Moves up to `stepPages` pages from the end of the file into free pages and cuts the end, in a
    /// transaction of its own; returns how many pages went and how many free ones remain.
    func step(_ connection: SQLiteConnection) throws(EventLogError) -> (reclaimedPages: Int64, remainingPages: Int64) {
        let started = monotonicNanoseconds()
        let before = try connection.integer("PRAGMA page_count")
        try connection.execute("PRAGMA incremental_vacuum(\(stepPages))")
        let after = try connection.integer("PRAGMA page_count")
        let elapsed = monotonicNanoseconds() - started
        // Halve past twice the aim, double below half of it: a step stays near a millisecond.
        if elapsed > 2 * Self.stepTargetNanoseconds {
            stepPages = max(8, stepPages / 2)
        } else if elapsed < Self.stepTargetNanoseconds / 2 {
            stepPages = min(8_192, stepPages * 2)
        }
        let reclaimed = max(0, before - after)
        totals.add(pages: reclaimed, pageSize: try connection.integer("PRAGMA page_size"))
        return (reclaimed, try connection.integer("PRAGMA freelist_count"))
    }
}

@available(*, unavailable)
extension SpaceReclaimer: Sendable {}

/// The bytes a log gave back to the file system since it was opened.
///
/// Thread-safety: Sendable; an atomic counter.
final class ReclaimTotals: Sendable {
    private let bytes = Atomic<Int64>(0)

    /// Bytes given back so far.
    var reclaimedBytes: Int64 { bytes.load(ordering: .relaxed) }

    /// Counts `pages` pages of `pageSize` bytes given back.
    func add(pages: Int64, pageSize: Int64) {
        guard pages > 0 else { return }
        bytes.add(pages * pageSize, ordering: .relaxed)
    }

    /// Counts `count` bytes given back.
    func add(bytes count: Int64) {
        guard count > 0 else { return }
        bytes.add(count, ordering: .relaxed)
    }
}
