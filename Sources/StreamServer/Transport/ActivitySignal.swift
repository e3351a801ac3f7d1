import Dispatch
import Synchronization

/// Requests noted by any thread, and one worker thread's sleep until the next: what the ways of
/// keeping wake-ups short (`IdleSpinner`, `CPULatencyRequest`) share.
///
/// The worker announces that it is going to sleep, then looks once more: a request noted at that
/// moment either sees the announcement and wakes it, or is seen by it. So the worker never sleeps
/// with a request it has not seen.
/// Thread-safety: Sendable; `note()` and `stop()` may be called from any thread, `sleep(after:)`
/// from the one worker thread only.
final class ActivitySignal: Sendable {
    /// Requests noted so far (wrapping).
    private let count = Atomic<UInt64>(0)
    /// Whether the worker is going to sleep and wants a signal.
    private let sleepAnnounced = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let asleep = Atomic<Bool>(false)
    /// The request count the worker last went to sleep with.
    private let sleptAfter = Atomic<UInt64>(0)
    private let wake = DispatchSemaphore(value: 0)

    /// The requests noted so far; the worker compares two readings to learn whether any came between.
    var current: UInt64 { count.load(ordering: .sequentiallyConsistent) }

    /// Whether `stop()` has been called.
    var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Whether the worker sleeps having seen every request noted so far: once requests stop, it must
    /// come to this, never to sleep with one unseen.
    var sleepsUpToDate: Bool {
        asleep.load(ordering: .sequentiallyConsistent)
            && sleptAfter.load(ordering: .sequentiallyConsistent) == current
    }

    /// Records a request, waking the worker if it sleeps.
    func note() {
        count.add(1, ordering: .sequentiallyConsistent)
        if sleepAnnounced.load(ordering: .sequentiallyConsistent),
           sleepAnnounced.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged {
            wake.signal()
        }
    }

    /// Tells the worker to end and wakes it; returns false when it had been told already.
    @discardableResult
    func stop() -> Bool {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return false }
        wake.signal()
        return true
    }

    /// Sleeps until a request newer than `seen`, or `stop()`; false when stopped.
    func sleep(after seen: UInt64) -> Bool {
        sleepAnnounced.store(true, ordering: .sequentiallyConsistent)
        if current == seen, !isStopped {
            sleptAfter.store(seen, ordering: .sequentiallyConsistent)
            asleep.store(true, ordering: .sequentiallyConsistent)
            wake.wait()
            asleep.store(false, ordering: .sequentiallyConsistent)
        } else if !sleepAnnounced.exchange(false, ordering: .sequentiallyConsistent) {
            wake.wait()  // a request claimed the announcement and signals: take that signal
        }
        return !isStopped
    }
}
