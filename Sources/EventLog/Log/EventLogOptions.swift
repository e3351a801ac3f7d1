/// When a commit counts as durable.
///
/// Values are immutable and Sendable.
public struct Durability: Hashable, Sendable, CustomStringConvertible {
    let synchronous: String

    /// WAL with synchronous=NORMAL: a commit survives a process crash; a power loss may lose the
    /// last commits, never corrupt the file.
    public static let normal = Durability(synchronous: "NORMAL")
    /// WAL with synchronous=FULL: the WAL is fsynced at each commit, which survives power loss.
    public static let full = Durability(synchronous: "FULL")

    /// The value as a log line or error report shows it.
    public var description: String { synchronous.lowercased() }
}

/// How a log is opened.
///
/// Values are Sendable.
public struct EventLogOptions: Sendable {
    /// Durability of each commit.
    public var durability: Durability = .normal
    /// Open without write access: reads and verify work, writes throw `readOnly`.
    public var readOnly: Bool = false
    /// zlib level for blocks (1 fastest … 9 smallest). Level 1 already saves most on JSON-like events.
    public var compressionLevel: Int32 = 1
    /// At most this many events per stored block.
    public var maximumEventsPerBlock: Int = 256
    /// At most about this many bytes of framing per stored block (one larger event still gets its own).
    public var maximumBlockBytes: Int = 64 * 1024
    /// The largest event accepted, in bytes.
    public var maximumEventBytes: Int = 16 * 1024 * 1024
    /// How long a connection waits for another process's lock before failing with `busy`.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// WAL pages (at least 1) after which the WAL is copied into the database: with `normal` durability
    /// by a background thread (at four times as many, by the commit that finds them), with `full` by the
    /// commit that crosses it (SQLite's automatic checkpoint).
    public var checkpointPages: Int32 = 1_000
    /// A hard limit on the database size in pages (SQLite `max_page_count`); nil leaves SQLite's.
    /// Reaching it makes appends fail with `diskFull`, like a full disk does.
    public var maximumPageCount: Int64? = nil
    /// Whether only this process may use the database while the log is open (SQLite's `unix-excl`
    /// VFS). Another process then cannot open it (`busy`), and this one's connections keep the WAL
    /// index in memory instead of the `-shm` file, so a transaction takes no file locks: a one-page
    /// commit costs 1 system call (one `pwrite`, see `SQLiteConnection`) instead of 7 or 8. streamd
    /// sets it; it owns its database. Open every log of a process on one file the same way: an
    /// exclusive log opened while the process has the file open shared does not get the lock, and
    /// other processes are then not kept out.
    public var exclusiveToProcess: Bool = false
    /// Whether appends are acknowledged once they are in the log's journal (`<db>.journal`), one
    /// `pwrite` per group of appends (and an `fdatasync` with `full` durability), and move into the
    /// database in the background, in batches of many commits: a single append then costs about a
    /// tenth of a SQLite transaction, and checkpoints never hold one up. Reads wait until what was
    /// acknowledged before them is in the database; opening the log stores what a crash left in the
    /// journal. Needs `exclusiveToProcess` (no other process would see the journal). streamd sets it.
    public var journal: Bool = false
    /// Whether the database's path may contain symlinks. When false, SQLite opens it with
    /// `SQLITE_OPEN_NOFOLLOW` and refuses a path with any symlink in it; the daemon resolves its
    /// database's directory itself and sets this, so a symlink planted at the file is never followed.
    /// (SQLite never follows a symlink at the `-wal`, `-shm` or `-journal` file either way.)
    public var followsSymlinks: Bool = true
    /// Whether nobody changes the file while the log is open, so SQLite may read it with no locks and
    /// no side files (its `immutable` URI parameter): for a read-only look at a stopped daemon's
    /// database whose write-ahead log is empty or absent. Wrong answers follow if the file does change.
    public var immutable: Bool = false
    /// Whether to open a log that went backwards: one holding fewer events than it acknowledged, as its
    /// `<db>.marks` file records (a damaged or cut-short WAL, an older copy of the file). Such a log is
    /// refused with `lostEvents` by default. With this set, each stream that lost events continues past
    /// the last sequence it acknowledged, so no sequence a client may have seen is handed out again,
    /// and `verify` reports the loss from then on.
    public var acceptLostEvents: Bool = false
    /// Bytes set aside in `<db>.reserve` and given back when the disk is full, so that deleting and
    /// truncating streams can still write (see `DiskReserve`); 0 keeps no reserve.
    public var diskReserveBytes: Int = 8 << 20
    /// Freed bytes inside the database past which the writer gives them back to the file system, in
    /// small incremental-vacuum steps between commits (see `SpaceReclaimer`); 0 never does on its own
    /// (`compact()` still does). Only databases created with incremental auto-vacuum can (every log
    /// this build creates); older ones need `compact()` once.
    public var reclaimThresholdBytes: Int = 4 << 20
    /// Told, on the writer's thread, when the disk fills (the log then refuses appends but still
    /// deletes and truncates) and when it has room again. Called once per change; keep it short.
    public var storageObserver: (@Sendable (StorageCondition) -> Void)? = nil
    /// Told, on the writer's thread after each commit, of the events each stream's retention limits
    /// removed in it (one report per stream and commit, never per event). Keep it short.
    public var retentionObserver: (@Sendable (RetentionDrop) -> Void)? = nil
    /// Told, off the writer's thread, of each background checkpoint cycle.
    public var checkpointObserver: (@Sendable (CheckpointReport) -> Void)? = nil
    /// How many streams get series of their own in the per-stream metrics (see `StreamLabelBound`);
    /// later streams are summed under one. Matters only where the process bootstrapped swift-metrics.
    public var streamMetricsLimit: Int = 100
    /// How many of a stream's latest events keep the message ids their appends carried, for streams
    /// whose policy names no `DeduplicationWindow` (streamd's default window, never negative): an id is
    /// stored with its event and forgotten once the event is that far back, or with its stream.
    package var deduplicationWindow: Int = 10_000
    /// Where commit timestamps come from; tests replace the wall clock to control time.
    package var clock: @Sendable () -> Int64 = wallClockMicroseconds

    /// The de-duplication window of a stream with `policy`: its own, or the last `deduplicationWindow`
    /// events.
    package func deduplication(of policy: StreamPolicy) -> DeduplicationWindow {
        policy.deduplication ?? DeduplicationWindow(events: UInt64(max(0, deduplicationWindow)))
    }

    /// The defaults: durability normal, read-write, zlib level 1, blocks of ≤ 256 events / 64 KiB.
    public init() {}

    /// Throws `invalidArgument` unless the sizes and levels are ones a log can work with: blocks and
    /// events above 1 GiB could not be read back (the block decoder refuses them), and larger values
    /// would overflow sizes computed from them. `path` names the log in the error.
    package func checkRanges(path: String) throws(EventLogError) {
        let gigabyte = 1 << 30
        guard (1...9).contains(compressionLevel), (1...1_000_000).contains(maximumEventsPerBlock),
              (64...gigabyte).contains(maximumBlockBytes), (1...gigabyte).contains(maximumEventBytes)
        else {
            throw EventLogError(
                .invalidArgument,
                "options out of range: compressionLevel must be 1...9, maximumEventsPerBlock 1...1000000, maximumBlockBytes 64 B...1 GiB, maximumEventBytes 1 B...1 GiB.",
                path: path)
        }
    }
}
