/// The single writer: owns the write connection and commits everything queued since its last commit
/// in one transaction (group commit), then answers each append.
///
/// Thread-safety: not Sendable; it lives on the log's writer thread and is reached only through
/// `WriteJob`s run there.
final class LogWriter: QueueCommitter {
    let connection: SQLiteConnection
    let options: EventLogOptions
    let observers: AppendObservers
    let decoder: BlockDecoder
    let deflater: Deflater
    var framer: BlockFramer
    private var cache: [String: StreamState] = [:]
    /// Blocks each cached stream committed since its catalog row's positions were last written (see
    /// LogWriter+Positions.swift); a stream missing here is written at its next commit.
    var unsavedBlocks: [String: Int] = [:]
    private var dataVersion: Int64 = -1
    /// The ids no stream has, read on the first creation after open or after the catalog changed
    /// under us (nil until then, and again after a rollback).
    private var freeIDs: FreeStreamIDs?
    /// Each stream's acknowledged high-water mark outside the database (`<db>.marks`).
    var marks: StreamMarks?
    /// The full-disk state and its reserve; nil when the log keeps no reserve.
    var fullDisk: FullDiskGuard?
    /// What retention removed in the transaction in progress, reported once it commits (only with a
    /// `retentionObserver`).
    var droppedByRetention: [RetentionDrop] = []
    /// Commit, per-stream and retention metrics.
    let metrics: EventLogMetrics
    /// Gives freed pages back to the file system between commits; nil when the log does not.
    var reclaimer: SpaceReclaimer?
    /// A journaled log's appends that reached the journal and wait to be stored; nil otherwise.
    var backlog: JournalBacklog?

    init(connection: SQLiteConnection, options: EventLogOptions, observers: AppendObservers) throws(EventLogError) {
        self.connection = connection
        self.options = options
        self.observers = observers
        decoder = try BlockDecoder()
        deflater = try Deflater(level: options.compressionLevel)
        framer = BlockFramer(capacity: options.maximumBlockBytes + 64)
        metrics = EventLogMetrics(streamLimit: options.streamMetricsLimit)
    }

    /// Runs the writer thread's loop until the queue is closed and drained.
    func run(_ queue: WriteQueue) {
        runQueue(queue)
        // A journaled log's last appends may wait with no `.ingest` queued for them.
        if backlog != nil { ingest() }
        savePositions()
        marks?.sync()
    }

    func processed() {
        reclaimer?.startIfDue(self)
    }

    func process(_ jobs: [WriteJob]) {
        // Consecutive appends share one commit; admin jobs run alone, in arrival order.
        var appends: [AppendRequest] = []
        for job in jobs {
            switch job {
            case .append(let request):
                appends.append(request)
            case .admin(let work):
                if !appends.isEmpty { commit(appends); appends.removeAll() }
                // A journaled log's appends go in first, so the job sees (and changes) all of them.
                if backlog != nil { ingest() }
                work(self)
                reclaimer?.adminJobRan()
            case .ingest:
                ingest()
            }
        }
        if !appends.isEmpty { commit(appends) }
    }

    // MARK: Transactions

    /// Runs `body` in a write transaction, rolling back (and forgetting cached catalog state) on failure.
    func transaction<R>(_ body: () throws -> R) throws(EventLogError) -> R {
        try connection.statement("BEGIN IMMEDIATE").run()
        do {
            // Another connection committed since our last transaction: the catalog cache may be stale.
            let version = try connection.integer("PRAGMA data_version")
            if version != dataVersion { forgetAll() }
            let result = try body()
            try connection.statement("COMMIT").run()
            dataVersion = version
            reportRetention()
            return result
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            droppedByRetention.removeAll()
            forgetAll()
            throw error as? EventLogError ?? EventLogError(.io, "\(error)", path: connection.path)
        }
    }

    /// Tells the retention observer what the transaction just committed removed.
    private func reportRetention() {
        guard !droppedByRetention.isEmpty else { return }
        let drops = droppedByRetention
        droppedByRetention.removeAll(keepingCapacity: true)
        if let observer = options.retentionObserver { for drop in drops { observer(drop) } }
    }

    /// The stream's cached catalog state, loaded on first use.
    func stream(_ name: String) throws(EventLogError) -> StreamState {
        if let state = cache[name] { return state }
        guard let state = try StreamCatalog.load(name, on: connection) else {
            throw EventLogError(
                .streamNotFound, "no stream named \"\(name)\" exists; create it with createStream first.",
                path: connection.path, stream: name)
        }
        cache[name] = state
        return state
    }

    /// The time stamped on commits, in microseconds since the Unix epoch.
    func now() -> Int64 { options.clock() }

    func remember(_ state: StreamState) { cache[state.name] = state }

    /// The cached state of `name`, without loading it.
    func cached(_ name: String) -> StreamState? { cache[name] }

    func forget(_ name: String) {
        cache[name] = nil
        unsavedBlocks[name] = nil
    }

    /// Inserts the catalog row of stream `name` under the smallest free id and caches it; inside a
    /// transaction.
    func insertStream(_ name: String, policy: StreamPolicy) throws(EventLogError) -> StreamState {
        var free = try freeStreamIDs()
        let state = try StreamCatalog.insert(name, id: free.smallest, policy: policy, now: now(), on: connection)
        free.take(state.id)
        freeIDs = free
        remember(state)
        return state
    }

    /// The free stream ids, read once (one pass over the catalog's primary key) and kept after.
    func freeStreamIDs() throws(EventLogError) -> FreeStreamIDs {
        if let known = freeIDs { return known }
        let loaded = try FreeStreamIDs.load(on: connection)
        freeIDs = loaded
        return loaded
    }

    /// Notes that a deleted stream's id may be taken again; inside the deleting transaction.
    func freedStreamID(_ id: Int64) {
        freeIDs?.release(id)
    }

    private func forgetAll() {
        freeIDs = nil
        cache.removeAll()
        unsavedBlocks.removeAll()
    }
}

@available(*, unavailable)
extension LogWriter: Sendable {}
