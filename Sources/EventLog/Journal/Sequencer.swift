import Dispatch
import Synchronization

/// Work for a journaled log's sequencer, in arrival order.
enum SequencerJob: Sendable {
    /// Consecutive appends share one journal write (group commit).
    case append(AppendRequest)
    /// Work that must see no append numbered while it runs (catalog changes): it runs alone, with the
    /// sequencer's role held, and the sequencer forgets what it knew of the streams afterwards.
    case exclusive(@Sendable () -> Void)
}

/// The front of a journaled log (`EventLogOptions.journal`): it numbers appends, makes them durable in
/// the journal with one write per group, and answers them; the writer stores them in the database later.
///
/// For each stream it keeps what numbering needs (last sequence and timestamp, whether it ended, its
/// id and life), loaded from the writer the first time a stream is appended to. An append is checked
/// as the writer would check it, numbered, and written with the others of its group as journal records
/// in one `pwrite`; then the group is handed to the writer (`JournalBacklog`), the live observers are
/// told, and each append is answered, in that order. A write that fails answers the whole group with
/// the failure and changes nothing.
///
/// Once the journal has grown past `resetBytes`, the sequencer waits for the writer to store all it
/// holds (a batch's time, a few milliseconds, once per some 25 000 small events) and starts it over,
/// so the journal and the memory the backlog holds stay bounded.
/// Catalog changes run as `SequencerJob.exclusive`: no append is numbered meanwhile, and the writer
/// stores every waiting append before it changes the catalog.
///
/// Thread-safety: not Sendable; it lives with the sequencer's committer role (`SequencerHandle`).
final class Sequencer: QueueCommitter {
    /// Journal bytes past which the journal starts over, once the writer stored all it holds.
    static let resetBytes = 4 << 20

    let journal: Journal
    let backlog: JournalBacklog
    private let observers: AppendObservers
    private let options: EventLogOptions
    private let path: String
    /// Runs work on the writer thread and waits for it; false when the writer is gone.
    private let onWriter: (@escaping @Sendable (LogWriter) -> Void) -> Bool
    /// What numbering needs of each stream appended to since the last catalog change.
    private var streams: [String: StreamState] = [:]
    /// The journal bytes written since the log opened (`JournalBacklog`'s positions).
    private var position: UInt64 = 0
    /// When a full disk was last looked at again, to leave the state once there is room.
    private var nextRoomCheck: UInt64 = 0
    /// Commit, event and per-stream counts, taken when appends are acknowledged.
    private let metrics: EventLogMetrics

    /// - Parameter unstored: what the journal kept from before the log opened that the database does
    ///   not hold yet (a full disk): the writer stores it first, and appends wait until it has.
    init(
        journal: Journal, backlog: JournalBacklog, unstored: [JournaledAppend], observers: AppendObservers, options: EventLogOptions,
        path: String, onWriter: @escaping (@escaping @Sendable (LogWriter) -> Void) -> Bool
    ) {
        self.journal = journal
        self.backlog = backlog
        self.observers = observers
        self.options = options
        self.path = path
        self.onWriter = onWriter
        metrics = EventLogMetrics(streamLimit: options.streamMetricsLimit)
        position = UInt64(journal.end - Journal.headerBytes)
        if !unstored.isEmpty { backlog.add(unstored, reaching: position) }
    }

    func process(_ jobs: [SequencerJob]) {
        var appends: [AppendRequest] = []
        for job in jobs {
            switch job {
            case .append(let request):
                appends.append(request)
            case .exclusive(let work):
                if !appends.isEmpty { commit(appends); appends.removeAll() }
                work()
                streams.removeAll()
            }
        }
        if !appends.isEmpty { commit(appends) }
    }

    func processed() {}

    /// Numbers `requests`, writes them to the journal in one write, hands them to the writer, tells the
    /// observers and answers each.
    func commit(_ requests: [AppendRequest]) {
        if let refusal = refusal() {
            for request in requests { request.completion(.failure(refusal.naming(stream: request.stream))) }
            return
        }
        do {
            try makeRoom()
        } catch {
            for request in requests { request.completion(.failure(error.naming(stream: request.stream))) }
            return
        }
        let started = metrics.isEnabled ? ContinuousClock.now : nil
        let now = options.clock()
        var numbered: [String: StreamState] = [:]
        var accepted: [(request: AppendRequest, receipt: AppendReceipt, state: StreamState)] = []
        accepted.reserveCapacity(requests.count)
        for request in requests {
            do {
                var state = try numbered[request.stream] ?? streams[request.stream] ?? load(request.stream)
                try state.check(request, maximumEventBytes: options.maximumEventBytes, path: path)
                let receipt = state.take(request, at: now)
                numbered[request.stream] = state
                accepted.append((request, receipt, state))
            } catch {
                request.completion(.failure(error as? EventLogError ?? EventLogError(.io, "\(error)")))
            }
        }
        guard !accepted.isEmpty else { return }
        let appends = accepted.map { item in
            JournaledAppend(
                stream: item.request.stream,
                record: JournalRecord(
                    kind: item.request.kind, streamID: item.state.id, streamCreated: item.state.created,
                    firstSequence: item.receipt.firstSequence, timestamp: item.receipt.timestamp, payloads: item.request.payloads,
                    messageIDs: item.request.messageIDs),
                encoded: item.request.encoded)
        }
        let bytes = journal.encode(appends.lazy.map(\.record))
        do {
            try journal.append(bytes)
        } catch {
            if error.code == .diskFull { _ = onWriter { writer in _ = writer.fullDisk?.filled(writer.connection) } }
            for item in accepted { item.request.completion(.failure(error.naming(stream: item.request.stream))) }
            return
        }
        streams.merge(numbered) { $1 }
        if let started { metrics.committed(accepted.lazy.map { ($0.request.stream, $0.request.payloads) }, since: started) }
        position += UInt64(bytes.count)
        backlog.add(appends, reaching: position)
        // Observers are queued before the acks, so once an append returns its commit is on its way to them.
        if observers.isObserved {
            for item in accepted {
                observers.deliver(item.receipt, kind: item.request.kind, payloads: item.request.payloads, streamCreated: item.state.created)
            }
        }
        for item in accepted { item.request.completion(.success(item.receipt)) }
    }

    /// Why appends are refused now, if they are: the disk is full (looked at again at most once a
    /// second), or the writer cannot store what the journal holds.
    private func refusal() -> EventLogError? {
        let (diskFull, failure) = backlog.refusal
        if diskFull {
            let clock = monotonicNanoseconds()
            if clock >= nextRoomCheck {
                nextRoomCheck = clock + 1_000_000_000
                // The journal gives its space back too, once the database holds all it does.
                if backlog.isCaughtUp, (try? journal.file.size()) ?? 0 > Journal.headerBytes { try? journal.resetAndShrink() }
                _ = onWriter { writer in _ = writer.fullDisk?.stillFull(on: writer.connection, now: true) }
            }
            return FullDiskGuard.refusal(path: path)
        }
        return failure.map(refusal(because:))
    }

    /// The refusal of appends while the writer cannot store what the journal holds.
    private func refusal(because failure: EventLogError) -> EventLogError {
        EventLogError(
            failure.code, "appends are refused while the log cannot move its journal into the database: \(failure.message)", path: path)
    }

    /// Starts the journal over once it has grown past `resetBytes`, after the writer stored all it holds.
    private func makeRoom() throws(EventLogError) {
        guard journal.end >= Self.resetBytes else { return }
        do {
            try backlog.waitUntilStored()
        } catch {
            throw refusal(because: error)
        }
        try journal.reset()
    }

    /// The state numbering needs for `name`, from the writer (the first append since a catalog change).
    private func load(_ name: String) throws(EventLogError) -> StreamState {
        let loaded = Mutex<Result<StreamState, EventLogError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let queued = onWriter { writer in
            loaded.withLock { $0 = Result { () throws(EventLogError) in try writer.stream(name) } }
            done.signal()
        }
        guard queued else { throw EventLogError(.closed, "the event log at \(path) is closed; open it again.", path: path) }
        done.wait()
        let state = try loaded.withLock { $0! }.get()
        streams[name] = state
        return state
    }
}

@available(*, unavailable)
extension Sequencer: Sendable {}

/// Shares a journaled log's `Sequencer` between its thread and leading appenders.
///
/// `@unchecked Sendable` is safe for the reason `WriterHandle` is: only the holder of the sequencer
/// queue's committer role touches the sequencer (the role passes under the queue's mutex), and
/// `finish` runs only after the sequencer's thread ended and the queue refuses new committers.
final class SequencerHandle: @unchecked Sendable {
    private(set) var sequencer: Sequencer?
    init(_ sequencer: Sequencer) { self.sequencer = sequencer }

    /// Starts the journal over if the writer stored all it holds (a log closed cleanly leaves it
    /// empty), and drops the sequencer.
    func finish() {
        if let sequencer, sequencer.backlog.isCaughtUp { try? sequencer.journal.reset() }
        sequencer = nil
    }
}
