import CSQLite
import Foundation
import Synchronization

/// Copies the WAL into the database file on a thread of its own, so commits do not wait for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold and holds up that
/// commit, and every append queued behind it, for milliseconds: that was the p99 of publish-to-
/// subscriber latency. Instead, the writer connection's WAL hook wakes this thread once the WAL holds
/// `pages` pages, and a cycle of two PASSIVE checkpoints on a connection of its own follows:
///
/// 1. a pass beside the writer copies what the WAL holds, while commits go on;
/// 2. a pass with commits held (`holdingCommits`) copies what they added meanwhile, a few pages.
///
/// After the second the WAL is copied to its end, so the next commit starts it over. A background pass
/// alone almost never reaches the end under steady commits, so passes followed one another without
/// end, each with its two fsyncs: thousands a second beside a stream of single publishes, which took
/// a fifth of a core and the disk's interrupts from the round trip. Now a cycle runs per `pages` pages.
///
/// When a reader's snapshot keeps the second pass from the end, the next cycle waits for `pages` more
/// pages rather than starting at once; and should the WAL reach four times `pages` all the same, the
/// commit checkpoints itself, after the pass in progress: the WAL stays bounded. Both are PASSIVE, so
/// neither ever waits for a reader. Logs with `full` durability do without it: there every commit
/// fsyncs, and a pass's fsyncs beside them cost more than SQLite's checkpoint inside a commit.
///
/// Thread-safety: Sendable. The WAL hook runs on whichever thread commits (one at a time); the second
/// pass runs wherever `holdingCommits` runs it; `stop` may be called from any thread, once the
/// writer connection is closed and no held pass is still to come.
final class BackgroundCheckpointer: Sendable {
    /// The WAL size, in pages, that starts a cycle.
    let pages: Int32
    /// Runs its argument with no commit in progress (later, on another thread); false when it
    /// cannot, as the log is closing.
    private let holdingCommits: @Sendable (@escaping @Sendable () -> Void) -> Bool
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// A cycle is requested or running: commits in the meantime do not request another.
    private let cycleRequested = Atomic<Bool>(false)
    /// The WAL size that starts the next cycle: `pages`, or `pages` past where the last one stopped
    /// when a reader kept it from the WAL's end.
    private let nextCycleAt: Atomic<Int32>
    private let stopped = Atomic<Bool>(false)
    private let counters = Mutex(Counters())
    /// How long each pass takes, for the metrics.
    private let durations = CheckpointMetrics()
    /// Held for each pass, background or inline, so an inline one waits for the background one
    /// instead of finding SQLite's checkpoint lock taken and copying nothing. Holds the background
    /// connection, which `stop` closes (nil from then on).
    private let passing: Mutex<SQLiteConnection?>
    /// Told of each cycle, off the writer's thread; nil: nobody asked.
    private let observer: (@Sendable (CheckpointReport) -> Void)?
    /// When the cycle in progress began its first pass.
    private let cycleStarted = Mutex<ContinuousClock.Instant?>(nil)

    /// What the checkpointer has done so far.
    struct Counters: Equatable {
        /// Cycles whose second pass has run.
        var cycles = 0
        /// Cycles whose second pass copied the WAL to its end.
        var cyclesToTheEnd = 0
        /// Checkpoints run by a commit that found the WAL at four times `pages`.
        var commitPasses = 0
    }

    /// Opens the checkpointing connection to `path` and starts its thread, checkpointing every
    /// `options.checkpointPages`; each cycle's second pass is handed to `holdingCommits`.
    init(
        path: String, options: EventLogOptions,
        holdingCommits: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool
    ) throws(EventLogError) {
        pages = max(1, options.checkpointPages)
        nextCycleAt = Atomic(pages)
        self.holdingCommits = holdingCommits
        observer = options.checkpointObserver
        passing = Mutex(try SQLiteConnection(
            path: path, readOnly: false, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            exclusiveToProcess: options.exclusiveToProcess,
            followsSymlinks: options.followsSymlinks, immutable: options.immutable))
        let thread = Thread { [self] in
            nameCurrentThread("log-checkpoint")
            run()
        }
        thread.start()
    }

    /// Makes commits on `writer` report the WAL's size here, in place of SQLite's automatic checkpoint.
    /// `self` must outlive `writer`'s handle (the log stops the checkpointer after closing it).
    func watch(_ writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// What the checkpointer has done so far.
    var done: Counters { counters.withLock { $0 } }

    /// Ends the thread after any pass in progress and closes its connection.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    /// Runs `body` between passes: a checkpoint of another kind would find SQLite's checkpoint lock
    /// taken by a pass and skip its work without an error.
    func betweenPasses(_ body: () throws(EventLogError) -> Void) throws(EventLogError) {
        try passing.withLock { (_: inout SQLiteConnection?) throws(EventLogError) in try body() }
    }

    /// Called after each commit with the WAL's size in pages.
    fileprivate func walGrew(to walPages: Int32, on handle: OpaquePointer?, schema: UnsafePointer<CChar>?) {
        // In Int: four times a huge threshold would overflow Int32.
        if Int(walPages) >= 4 * Int(pages) {
            passing.withLock { _ in
                durations.measure(.inline) { _ = sqlite3_wal_checkpoint_v2(handle, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
            }
            counters.withLock { $0.commitPasses += 1 }
            return
        }
        let next = nextCycleAt.load(ordering: .relaxed)
        if walPages >= next {
            if !cycleRequested.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
        } else if walPages < next - pages {
            nextCycleAt.store(pages, ordering: .relaxed)  // the WAL started over below where the last cycle stopped
        }
    }

    private func run() {
        while true {
            wake.wait()
            if stopped.load(ordering: .acquiring) { break }
            if observer != nil { cycleStarted.withLock { $0 = .now } }
            // A failed pass (the database busy with another checkpoint, say) leaves the frames for the next.
            passing.withLock { connection in
                durations.measure(.background) { _ = try? connection?.execute("PRAGMA wal_checkpoint(PASSIVE)") }
            }
            if !holdingCommits({ [self] in finishCycle() }) {
                cycleRequested.store(false, ordering: .releasing)
            }
        }
        // Closed here, not when the log is freed: close() lets go of every file.
        passing.withLock { $0 = nil }
        finished.signal()
    }

    /// A cycle's second pass, with no commit in progress: copies what commits added during the first.
    private func finishCycle() {
        var walPages: Int32 = 0, copied: Int32 = 0
        let outcome = passing.withLock { connection -> Int32 in
            guard let handle = connection?.handle else { return SQLITE_MISUSE }
            return durations.measure(.held) { sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &walPages, &copied) }
        }
        let toTheEnd = outcome == SQLITE_OK && copied == walPages
        // To the end, the next commit starts the WAL over; otherwise wait for `pages` more.
        nextCycleAt.store(toTheEnd ? pages : Int32(clamping: Int(walPages) + Int(pages)), ordering: .relaxed)
        counters.withLock {
            $0.cycles += 1
            if toTheEnd { $0.cyclesToTheEnd += 1 }
        }
        cycleRequested.store(false, ordering: .releasing)
        if let observer, let started = cycleStarted.withLock({ $0 }) {
            let report = CheckpointReport(
                duration: started.duration(to: .now), walPages: Int(walPages), copiedPages: Int(copied), reachedEnd: toTheEnd)
            // Commits are held here: the observer runs elsewhere.
            DispatchQueue.global().async { observer(report) }
        }
    }
}

/// SQLite's WAL hook: runs inside each commit on the writer connection.
private func walHook(
    _ context: UnsafeMutableRawPointer?, _ handle: OpaquePointer?, _ schema: UnsafePointer<CChar>?, _ walPages: Int32
) -> Int32 {
    guard let context else { return SQLITE_OK }
    Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue().walGrew(to: walPages, on: handle, schema: schema)
    return SQLITE_OK
}
