#if canImport(Glibc)
import Glibc
#endif

/// The writer's full-disk state: whether appends are refused, the reserve given back for deletes,
/// and how the log finds its way out.
///
/// Entered when a write fails with `diskFull`: the reserve (`DiskReserve`) is given back, the
/// observer told once, and appends are refused without trying, so they cannot take the space that
/// deletes and truncations need. Left, after each such change or (at most once a second) when an
/// append is refused, once a checkpoint copied the whole WAL into the database and truncated it, a
/// journaled log stored what it acknowledged meanwhile, and the reserve could be allocated again.
/// While the log is full the database file does not shrink (`SpaceReclaimer` waits: its steps write
/// to the WAL): what a delete frees stays inside it, on SQLite's freelist, and appends reuse it. The
/// file system space comes back from the WAL: truncating it frees what it held, the reserve takes its
/// share, and the WAL grows again into the rest while appends fill the freed pages. Once the log has
/// room, the next large deletion's pages are given back (or `compact()` gives them back at once).
///
/// Thread-safety: not Sendable; the log's writer owns it and uses it on its thread only.
final class FullDiskGuard {
    let reserve: DiskReserve
    let path: String
    let observer: (@Sendable (StorageCondition) -> Void)?
    /// Copies the whole WAL into the database and truncates it (between background checkpoint
    /// passes, once the log wraps it).
    var checkpoint: (SQLiteConnection) throws(EventLogError) -> Void = { connection throws(EventLogError) in
        guard try connection.integer("PRAGMA wal_checkpoint(TRUNCATE)") == 0 else {
            throw EventLogError(.busy, "a reader kept the WAL from being copied to its end.", path: connection.path)
        }
    }
    private(set) var isFull = false {
        didSet { if isFull != oldValue { changed?(isFull) } }
    }
    private var nextAttempt: UInt64 = 0
    /// Told each time the log enters or leaves the full state (a journaled log's sequencer refuses
    /// appends while it is full).
    var changed: ((Bool) -> Void)?

    init(reserve: DiskReserve, path: String, observer: (@Sendable (StorageCondition) -> Void)?) {
        self.reserve = reserve
        self.path = path
        self.observer = observer
    }

    /// A journaled log's appends that are acknowledged and not stored yet go in before the reserve is
    /// taken back (they need its room more than future appends do); returns whether all are in.
    var storePending: (() -> Bool)?

    /// A write failed with `diskFull`: enters the full state and makes what room it can: gives the
    /// reserve back, or once that is gone copies the WAL into the database and truncates it (what the
    /// WAL held beyond the database's own growth comes free). Returns whether there may be room now,
    /// so that the failed change may be tried once more.
    func filled(_ connection: SQLiteConnection) -> Bool {
        let held = reserve.isHeld
        reserve.release()
        if !isFull {
            isFull = true
            report(on: connection)
        }
        return held || (try? checkpoint(connection)) != nil
    }

    /// Whether the log is still full after trying to leave the state (at once with `now`, else at
    /// most once a second). Costs nothing while the log is not full.
    func stillFull(on connection: SQLiteConnection, now: Bool) -> Bool {
        guard isFull else { return false }
        let clock = monotonicNanoseconds()
        if !now && clock < nextAttempt { return true }
        nextAttempt = clock + 1_000_000_000
        guard (try? checkpoint(connection)) != nil else { return true }
        if let storePending {
            guard storePending(), (try? checkpoint(connection)) != nil else { return true }
        }
        guard reserve.refill() else { return true }
        isFull = false
        report(on: connection)
        return false
    }

    /// The refusal of an append while the log is full.
    func refusal(stream: String) -> EventLogError {
        Self.refusal(path: path, stream: stream)
    }

    /// The refusal of an append to the log at `path` while its disk is full.
    static func refusal(path: String, stream: String? = nil) -> EventLogError {
        EventLogError(
            .diskFull,
            "the disk holding \(path) is full, so publishing is refused until there is room; truncate or delete streams (streamctl truncate, config --max-bytes, rm) or free disk space, and publishing resumes by itself.",
            path: path, stream: stream)
    }

    private func reusableBytes(_ connection: SQLiteConnection) -> Int64 {
        let pages = (try? connection.integer("PRAGMA freelist_count")) ?? 0
        let size = (try? connection.integer("PRAGMA page_size")) ?? 4096
        return pages * size
    }

    private func report(on connection: SQLiteConnection) {
        guard let observer else { return }
        observer(StorageCondition(
            isFull: isFull, path: path, freeBytes: DatabaseFiles.freeBytes(beside: path) ?? -1, databaseBytes: DatabaseFiles.bytes(path),
            reusableBytes: reusableBytes(connection), reserveBytes: reserve.bytes))
    }
}

@available(*, unavailable)
extension FullDiskGuard: Sendable {}
