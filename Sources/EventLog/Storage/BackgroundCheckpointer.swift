import CSQLite
import Foundation
import Synchronization

/// Copies the WAL into the database file on a thread of its own, so commits do not wait for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold and holds up that
/// commit, and every append queued behind it, for milliseconds: that was the p99 of publish-to-
/// subscriber latency. Instead, the writer connection's WAL hook wakes this thread once the WAL holds
/// `pages` pages, and it runs a PASSIVE checkpoint on a connection of its own, beside the writer.
/// Under a steady stream of commits a background pass may never reach the last frame, and the WAL
/// starts over only once one has; so at four times `pages` the commit checkpoints itself, after the
/// background pass in progress, copying only what the passes have not: the WAL stays bounded. Both are
/// PASSIVE, so neither ever waits for a reader. Logs with `full` durability do without it: there every
/// commit fsyncs, and a pass's fsyncs beside them cost more than SQLite's checkpoint inside a commit.
///
/// Thread-safety: Sendable. The WAL hook runs on whichever thread commits (one at a time); `stop`
/// may be called from any thread, once the writer connection is closed.
final class BackgroundCheckpointer: Sendable {
    /// The WAL size, in pages, that starts a background pass.
    let pages: Int32
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// A pass is requested and has not started: commits in the meantime do not queue more. Passes
    /// otherwise follow one another as long as the WAL is over `pages`, keeping its copied part close
    /// to its end, so the WAL starts over often and the commit at four times `pages` is rare and short.
    private let passRequested = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// Held for each pass, background or inline, so an inline one waits for the background one
    /// instead of finding SQLite's checkpoint lock taken and copying nothing. Holds the background
    /// connection, which `stop` closes (nil from then on).
    private let passing: Mutex<SQLiteConnection?>

    /// Opens the checkpointing connection to `path` and starts its thread, checkpointing every
    /// `options.checkpointPages`.
    init(path: String, options: EventLogOptions) throws(EventLogError) {
        pages = max(1, options.checkpointPages)
        passing = Mutex(try SQLiteConnection(
            path: path, readOnly: false, create: false, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
            exclusiveToProcess: options.exclusiveToProcess))
        let thread = Thread { [self] in run() }
        thread.name = "streamd.eventlog.checkpointer"
        thread.start()
    }

    /// Makes commits on `writer` report the WAL's size here, in place of SQLite's automatic checkpoint.
    /// `self` must outlive `writer`'s handle (the log stops the checkpointer after closing it).
    func watch(_ writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

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
            passing.withLock { _ in _ = sqlite3_wal_checkpoint_v2(handle, schema, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
        } else if walPages >= pages, !passRequested.exchange(true, ordering: .acquiringAndReleasing) {
            wake.signal()
        }
    }

    private func run() {
        while true {
            wake.wait()
            if stopped.load(ordering: .acquiring) { break }
            passRequested.store(false, ordering: .releasing)
            // A failed pass (the database busy with another checkpoint, say) leaves the frames for the next.
            passing.withLock { connection in _ = try? connection?.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        }
        // Closed here, not when the log is freed: close() lets go of every file.
        passing.withLock { $0 = nil }
        finished.signal()
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
