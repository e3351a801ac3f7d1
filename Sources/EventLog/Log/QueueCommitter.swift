/// Whoever takes the jobs of a `WorkQueue` while holding its committer role: the log's writer (SQLite
/// work) and a journaled log's sequencer (appends to the journal). The three ways to hold the role
/// are the same for both, so they live here once.
///
/// Thread-safety: conformers are not Sendable; only the holder of the queue's committer role calls them.
package protocol QueueCommitter: AnyObject {
    associatedtype Job: Sendable
    /// Runs one batch of jobs, in order.
    func process(_ jobs: [Job])
    /// After each batch, before the role may pass on.
    func processed()
}

extension QueueCommitter {
    /// Runs the queue's thread: takes jobs until the queue is closed and drained.
    package func runQueue(_ queue: WorkQueue<Job>) {
        while let jobs = queue.acquire() {
            drain(queue, jobs)
        }
    }

    /// Runs a leading caller's own job and, once, whatever arrived meanwhile (handing that to the
    /// queue's thread would cost a wake-up of a thread, more than the work itself), then gives up the
    /// role, waking the queue's thread for anything later: a caller never works off other callers'
    /// load for long.
    func lead(_ queue: WorkQueue<Job>, _ job: Job) {
        process([job])
        processed()
        guard let more = queue.takeMoreOrRelease() else { return }
        process(more)
        processed()
        queue.release()
    }

    /// Runs `jobs` and everything queued meanwhile, then gives up the role.
    func drain(_ queue: WorkQueue<Job>, _ jobs: [Job]) {
        var jobs = jobs
        while true {
            process(jobs)
            processed()
            guard let more = queue.takeMoreOrRelease() else { return }
            jobs = more
        }
    }
}
