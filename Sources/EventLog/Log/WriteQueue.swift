import Dispatch
import Synchronization

/// One append waiting for the writer: the events for one stream and who to tell when it committed.
package struct AppendRequest: Sendable {
    package var stream: String
    /// The kind of every event: values, or one terminal event.
    package var kind: LogEvent.Kind
    package var payloads: [[UInt8]]
    /// The payloads already framed and compressed by the appender (large appends), or nil.
    var encoded: [EncodedBlock]? = nil
    /// For a conditional append: the sequence the stream must end at, checked when the append is
    /// numbered (in PostgreSQL, under the stream's row lock), so it holds across processes.
    package var expectedLastSequence: UInt64? = nil
    /// The message id of each event (one per payload, nil where it has none), or empty when no event
    /// has one: stored with the events, for de-duplication across restarts.
    package var messageIDs: [String?] = []
    package var completion: @Sendable (Result<AppendReceipt, EventLogError>) -> Void

    package init(
        stream: String, kind: LogEvent.Kind, payloads: [[UInt8]], encoded: [EncodedBlock]? = nil, expectedLastSequence: UInt64? = nil,
        messageIDs: [String?] = [], completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        self.stream = stream
        self.kind = kind
        self.payloads = payloads
        self.encoded = encoded
        self.expectedLastSequence = expectedLastSequence
        self.messageIDs = messageIDs
        self.completion = completion
    }
}

/// Work for the writer thread, in arrival order.
enum WriteJob: Sendable {
    /// Consecutive appends are committed together (group commit).
    case append(AppendRequest)
    /// Catalog and maintenance work, run alone in its own transaction (in a journaled log, after the
    /// writer stored every append the journal holds).
    case admin(@Sendable (LogWriter) -> Void)
    /// A journaled log's appends that reached its journal: the writer stores all that wait (see
    /// `JournalBacklog`) in one transaction.
    case ingest
}

/// The writer's queue: SQLite work, run by the writer thread (or a leading appender).
typealias WriteQueue = WorkQueue<WriteJob>

/// The hand-off between callers and whoever commits: callers push jobs; the committer takes
/// everything that arrived while it was busy in one go, which is what makes commits shared.
///
/// At most one thread commits at a time: the one that holds the `draining` flag. That is the queue's
/// own thread, which keeps taking queued jobs until the queue is empty, or a synchronous appender that
/// found nobody committing and runs its own commit (saving two thread hand-offs, ~30–60 µs on this
/// machine), then hands whatever arrived meanwhile to the queue's thread. The writer has one (SQLite
/// work), and a journaled log's sequencer another (appends to the journal).
/// Thread-safety: Sendable; every method may be called from any thread.
package final class WorkQueue<Job: Sendable>: Sendable {
    private struct State {
        var jobs: [Job] = []
        var closed = false
        var draining = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    package init() {}

    /// What `pushOrLead` decided.
    enum Admission { case queued, lead, refused }

    /// Queues `job`; returns false (and does not queue) once the queue is closed.
    package func push(_ job: Job) -> Bool {
        pushOrLead(job, mayLead: false) != .refused
    }

    /// Queues `job`, or, when `mayLead` and nobody is committing, makes the caller the committer
    /// (the job is then NOT queued: the caller runs it, then `takeMoreOrRelease`).
    func pushOrLead(_ job: Job, mayLead: Bool) -> Admission {
        let (admission, signal) = state.withLock { state -> (Admission, Bool) in
            guard !state.closed else { return (.refused, false) }
            // Leading with jobs already queued would commit this one ahead of them: arrival order first.
            if mayLead && !state.draining && state.jobs.isEmpty {
                state.draining = true
                return (.lead, false)
            }
            state.jobs.append(job)
            // A committer at work will see the job before it lets go; otherwise wake the writer thread.
            return (.queued, !state.draining)
        }
        if signal { wake.signal() }
        return admission
    }

    /// For a leading appender: gives up the committer role after one commit, waking the writer thread
    /// for whatever was queued meanwhile, so an appender never works off other callers' load for long.
    func release() {
        let signal = state.withLock { state -> Bool in
            state.draining = false
            return !state.jobs.isEmpty || state.closed
        }
        if signal { wake.signal() }
    }

    /// Stops accepting jobs; the writer drains what is queued, then ends.
    package func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// For the writer thread: waits until there are jobs and nobody else commits, then takes them all
    /// and becomes the committer. Returns nil when closed, drained and idle.
    func acquire() -> [Job]? {
        while true {
            let (jobs, finished) = state.withLock { state -> ([Job], Bool) in
                guard !state.draining else { return ([], false) }
                if state.jobs.isEmpty { return ([], state.closed) }
                state.draining = true
                let jobs = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                return (jobs, false)
            }
            if !jobs.isEmpty { return jobs }
            if finished { return nil }
            wake.wait()
        }
    }

    /// For the committer: the jobs queued meanwhile, or nil after giving up the committer role
    /// because there are none.
    func takeMoreOrRelease() -> [Job]? {
        let (jobs, signal) = state.withLock { state -> ([Job], Bool) in
            if state.jobs.isEmpty {
                state.draining = false
                return ([], state.closed)
            }
            let jobs = state.jobs
            state.jobs.removeAll(keepingCapacity: true)
            return (jobs, false)
        }
        // A closing log's writer thread may be waiting for the committer role to end.
        if signal { wake.signal() }
        return jobs.isEmpty ? nil : jobs
    }
}
