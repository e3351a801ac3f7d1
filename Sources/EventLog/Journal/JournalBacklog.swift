import Dispatch
import Synchronization

/// An append of a journaled log that is in the journal and waits to be stored in the database.
///
/// Values are Sendable.
struct JournaledAppend: Sendable {
    /// The stream's name (the writer's catalog cache is by name).
    var stream: String
    /// The append as the journal holds it: the stream's id and life, sequences, timestamp, payloads.
    var record: JournalRecord
    /// The payloads framed and compressed by the appender (large appends), or nil.
    var encoded: [EncodedBlock]? = nil
}

/// The appends of a journaled log between the journal and the database: the sequencer adds each
/// batch it wrote to the journal; the writer takes them all and stores them in one transaction
/// (`LogWriter.ingest`); readers wait until what was acknowledged before they began is stored.
///
/// Positions count the journal's bytes since the log opened (they do not go back when the journal
/// starts over): `written` is where the sequencer is, `stored` how far the writer has come. The writer
/// is asked for a batch (`kick`, which queues `WriteJob.ingest`) once `eventsPerBatch` events or
/// `bytesPerBatch` bytes wait, `delay` after the first one otherwise, and at once when someone waits:
/// a stream of single publishes then costs one SQLite transaction every 5 ms, not one each. (20 ms
/// spent less at a trickle of 475 publishes a second, 0.065 of a core instead of 0.098, but raised
/// the publish-to-subscriber p99 at 10 000 a second from 372 to 549 µs: the writer's longer
/// transactions compete with the event loops for the two cores. Asking for a batch at 64 events
/// instead of 4 096 cost publish throughput and round trip.) A batch the writer could not store goes
/// back to the front and is tried again after `retryDelay`; meanwhile readers hear why (catalog reads
/// not, on a full disk: they answer from the database), and so does the sequencer, which then
/// refuses appends rather than let the journal grow.
///
/// Thread-safety: Sendable; the state sits behind a Mutex, and `kick` runs outside it.
final class JournalBacklog: Sendable {
    static let eventsPerBatch = 4_096
    static let bytesPerBatch = 1 << 20
    static let delay = DispatchTimeInterval.milliseconds(5)
    static let retryDelay = DispatchTimeInterval.seconds(1)

    private struct State {
        var pending: [JournaledAppend] = []
        var pendingEvents = 0
        var pendingBytes = 0
        /// The position `pending` reaches.
        var written: UInt64 = 0
        var stored: UInt64 = 0
        /// A `WriteJob.ingest` is queued and not taken yet.
        var ingestQueued = false
        /// A delayed request is on its way.
        var timerArmed = false
        /// Why the last batch could not be stored; nil once one was.
        var failure: EventLogError?
        /// Readers waiting for `stored` to reach their target.
        var waiters: [(target: UInt64, wake: DispatchSemaphore)] = []
        /// Whether the writer found the disk full (appends are refused until it has room).
        var diskFull = false
    }

    private let state = Mutex(State())
    /// Queues `WriteJob.ingest` on the writer's queue; false once that is closed.
    private let kick: @Sendable () -> Bool

    init(kick: @escaping @Sendable () -> Bool) {
        self.kick = kick
    }

    // MARK: The sequencer's side

    /// Adds the appends the sequencer just wrote to the journal, which now reaches `position`.
    func add(_ appends: [JournaledAppend], reaching position: UInt64) {
        let request = state.withLock { state -> Bool in
            state.pending.append(contentsOf: appends)
            for append in appends {
                state.pendingEvents += append.record.payloads.count
                state.pendingBytes += append.record.payloads.reduce(0) { $0 + $1.count }
            }
            state.written = position
            if state.pendingEvents >= Self.eventsPerBatch || state.pendingBytes >= Self.bytesPerBatch { return true }
            if !state.timerArmed {
                state.timerArmed = true
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.delay) { [self] in
                    self.state.withLock { $0.timerArmed = false }
                    requestIngest()
                }
            }
            return false
        }
        if request { requestIngest() }
    }

    /// Whether everything written is stored, so the journal may start over.
    var isCaughtUp: Bool { state.withLock { $0.stored == $0.written } }

    /// Why appends must be refused now, if they must: the disk is full, or the writer cannot store.
    var refusal: (diskFull: Bool, failure: EventLogError?) {
        state.withLock { ($0.diskFull, $0.failure) }
    }

    // MARK: The writer's side

    /// Everything waiting, and the position it reaches.
    func take() -> (appends: [JournaledAppend], reaching: UInt64) {
        state.withLock { state in
            state.ingestQueued = false
            defer {
                state.pending.removeAll()
                state.pendingEvents = 0
                state.pendingBytes = 0
            }
            return (state.pending, state.written)
        }
    }

    /// Everything up to `position` is in the database.
    func stored(reaching position: UInt64) {
        let woken = state.withLock { state -> [DispatchSemaphore] in
            state.stored = max(state.stored, position)
            state.failure = nil
            let due = state.waiters.filter { $0.target <= state.stored }
            state.waiters.removeAll { $0.target <= state.stored }
            return due.map(\.wake)
        }
        for wake in woken { wake.signal() }
    }

    /// The writer could not store `appends` (taken earlier) because of `failure`: they go back to the
    /// front, waiters hear why, and the writer tries again after `retryDelay`.
    func failed(_ appends: [JournaledAppend], because failure: EventLogError) {
        let woken = state.withLock { state -> [DispatchSemaphore] in
            state.pending.insert(contentsOf: appends, at: 0)
            for append in appends {
                state.pendingEvents += append.record.payloads.count
                state.pendingBytes += append.record.payloads.reduce(0) { $0 + $1.count }
            }
            state.failure = failure
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.wake)
        }
        for wake in woken { wake.signal() }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryDelay) { [self] in requestIngest() }
    }

    /// The writer entered (or left) the full-disk state.
    func setDiskFull(_ full: Bool) {
        state.withLock { $0.diskFull = full }
    }

    // MARK: Readers

    /// Returns once every append written to the journal before this call is in the database; throws
    /// while the writer cannot store them, or with `allowingFullDisk` (catalog reads, which an
    /// operator needs to make room) returns when the cause is a full disk: what the database holds is
    /// then all there is to see.
    func waitUntilStored(allowingFullDisk: Bool = false) throws(EventLogError) {
        let wake = DispatchSemaphore(value: 0)
        while true {
            let outcome = state.withLock { state -> Result<Bool, EventLogError> in
                if state.stored >= state.written { return .success(true) }
                if let failure = state.failure {
                    return allowingFullDisk && failure.code == .diskFull ? .success(true) : .failure(failure)
                }
                state.waiters.append((state.written, wake))
                return .success(false)
            }
            switch outcome {
            case .success(true): return
            case .failure(let failure): throw failure
            case .success(false):
                // A closed writer queue stores what waits as it finishes; the wait ends then too.
                if !requestIngest() { return }
                wake.wait()
            }
        }
    }

    /// Queues `WriteJob.ingest` unless one is queued already; false when the writer is gone.
    @discardableResult
    private func requestIngest() -> Bool {
        let queue = state.withLock { state -> Bool in
            guard !state.ingestQueued, state.stored < state.written || !state.pending.isEmpty else { return false }
            state.ingestQueued = true
            return true
        }
        guard queue else { return true }
        if kick() { return true }
        state.withLock { $0.ingestQueued = false }
        return false
    }
}
