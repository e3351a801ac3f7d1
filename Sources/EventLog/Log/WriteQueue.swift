import Dispatch
import Synchronization

/// One append waiting for the writer: the events for one stream and who to tell when it committed.
struct AppendRequest: Sendable {
    var stream: String
    var kinds: [LogEvent.Kind]
    var payloads: [[UInt8]]
    var completion: @Sendable (Result<AppendReceipt, EventLogError>) -> Void
}

/// Work for the writer thread, in arrival order.
enum WriteJob: Sendable {
    /// Consecutive appends are committed together (group commit).
    case append(AppendRequest)
    /// Catalog and maintenance work, run alone in its own transaction.
    case admin(@Sendable (LogWriter) -> Void)
}

/// The hand-off between callers and the writer thread: callers push jobs, the writer takes everything
/// that arrived while it was busy in one go, which is what makes commits shared.
///
/// Thread-safety: Sendable; `push` may be called from any thread, `takeAll` only by the writer.
final class WriteQueue: Sendable {
    private struct State {
        var jobs: [WriteJob] = []
        var closed = false
    }
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Queues `job`; returns false (and does not queue) once the queue is closed.
    func push(_ job: WriteJob) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wake.signal() }
        return accepted
    }

    /// Stops accepting jobs; the writer drains what is queued, then ends.
    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    /// Waits for jobs and takes them all; returns nil when closed and drained.
    func takeAll() -> [WriteJob]? {
        while true {
            let (jobs, closed) = state.withLock { state in
                let jobs = state.jobs
                state.jobs.removeAll(keepingCapacity: true)
                return (jobs, state.closed)
            }
            if !jobs.isEmpty { return jobs }
            if closed { return nil }
            wake.wait()
        }
    }
}
