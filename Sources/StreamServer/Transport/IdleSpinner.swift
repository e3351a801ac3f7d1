import EventLog
import Foundation
import Synchronization

/// Keeps one CPU awake for a short while after each client request, so that waking the event loop
/// for the next request costs a context switch instead of a sleeping core's wake-up.
///
/// A sleeping core (a halted virtual CPU above all) takes tens of microseconds to wake: on a
/// two-core VM that was most of a publish round trip. While requests keep coming, one thread at
/// the kernel's idle priority (`SCHED_IDLE`) spins, for at most `window` after the last request,
/// then sleeps until the next. At idle priority it runs only on a core that has nothing else to
/// run, and any other thread that wakes there takes the core at once, so it never delays the
/// daemon or its neighbours; what it costs is that core's power while it spins.
///
/// With `--idle-spin`, streamd runs one per core, so that the client's core, too, is awake to take
/// its reply. A `CPULatencyRequest` wakes threads sooner: a spinning core is busy, so a thread
/// woken there still takes an interrupt between cores, while a polling idle core needs none.
/// When the kernel refuses the idle priority the thread ends at once and nothing spins.
/// Thread-safety: Sendable; `noteActivity()` and `stop()` may be called from any thread.
final class IdleSpinner: WakeLatencyKeeper {
    /// How long the thread spins after the last request before it sleeps.
    let window: Duration
    private let activity = ActivitySignal()
    private let spinning = Atomic<Bool>(false)
    private let spinsStarted = Atomic<Int>(0)
    /// The spinning thread's `pthread_t`, zero until it runs.
    private let threadHandle = Atomic<UInt>(0)

    /// Starts the spinning thread, named and at idle priority once this returns; it sleeps until the
    /// first `noteActivity()`.
    init(window: Duration) {
        self.window = window
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in run(started: started) }
        started.wait()
    }

    /// Records a request: the thread spins until `window` has passed without another.
    func noteActivity() {
        activity.note()
    }

    /// Tells the thread to end, without waiting for it: it leaves at its next turn on a core, which
    /// at idle priority may take seconds on a busy machine. Later calls do nothing.
    func stop() {
        activity.stop()
    }

    /// Whether the thread is spinning now (rather than sleeping or stopped).
    var isSpinning: Bool { spinning.load(ordering: .relaxed) }

    /// How many times the thread has started to spin.
    var spinCount: Int { spinsStarted.load(ordering: .relaxed) }

    /// Whether the thread sleeps having seen every request noted so far.
    var sleepsUpToDate: Bool { activity.sleepsUpToDate }

    /// The spinning thread from `init` until it has left after `stop()`.
    var thread: pthread_t? {
        let handle = threadHandle.load(ordering: .acquiring)
        return handle == 0 ? nil : pthread_t(handle)
    }

    /// `SCHED_IDLE` of `<linux/sched.h>`, which Glibc declares only under `_GNU_SOURCE`.
    static let idlePolicy: Int32 = 5

    private func run(started: DispatchSemaphore) {
        defer { threadHandle.store(0, ordering: .releasing) }
        nameCurrentThread("idle-spinner")
        var parameter = sched_param()
        guard pthread_setschedparam(pthread_self(), Self.idlePolicy, &parameter) == 0 else {
            started.signal()
            return
        }
        threadHandle.store(UInt(pthread_self()), ordering: .releasing)
        // Taken before `init` returns, so that no request noted after it counts as seen.
        var seen = activity.current
        started.signal()
        while activity.sleep(after: seen) {
            seen = spin(from: activity.current)
        }
    }

    /// Spins until `window` passes without a request; returns the request count last seen.
    private func spin(from start: UInt64) -> UInt64 {
        spinning.store(true, ordering: .relaxed)
        spinsStarted.add(1, ordering: .relaxed)
        defer { spinning.store(false, ordering: .relaxed) }
        var seen = start
        var deadline = ContinuousClock.now + window
        while !activity.isStopped {
            let latest = activity.current
            let now = ContinuousClock.now
            if latest != seen {
                seen = latest
                deadline = now + window
            } else if now >= deadline {
                break
            }
        }
        return seen
    }
}
