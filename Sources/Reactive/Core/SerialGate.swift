import Synchronization

/// Runs work one piece at a time without blocking anyone: the serialization behind signals.
///
/// A caller first tries to take the gate's token with one compare-exchange. If it gets it, it runs its
/// work at once and then releases the token, running whatever others queued meanwhile. A caller that
/// finds the token taken (another thread, or its own reentrant call from inside the work) queues its
/// work and returns; the token holder runs it before letting go (the queue-drain pattern). So work never
/// overlaps, never deadlocks, and runs in the order it was queued.
///
/// Thread-safe. One gate may serialize several signal cores: a signal derived from one upstream by a
/// single-source operator shares its upstream's gate, so a chain of operators takes one token per event.
@usableFromInline
final class SerialGate: Sendable {
    @usableFromInline
    let token = Atomic<Int>(0)
    private let backlog = Mutex<ContiguousArray<@Sendable () -> Void>>([])

    @usableFromInline
    init() {}

    /// Takes the token if it is free; the caller must then `release()` it.
    @inlinable
    func tryAcquire() -> Bool {
        token.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Gives back the token, first running the work queued while it was held.
    @inlinable
    func release() {
        let missed = token.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        if missed != 0 { drain(missed: missed) }
    }

    /// Runs `work` now if the token is free, else after the work ahead of it.
    @usableFromInline
    func run(_ work: @escaping @Sendable () -> Void) {
        if tryAcquire() {
            work()
            release()
        } else {
            enqueue(work)
        }
    }

    /// Queues `work` for the token holder, or runs it if the token is free by then.
    @usableFromInline
    func enqueue(_ work: @escaping @Sendable () -> Void) {
        backlog.withLock { $0.append(work) }
        if token.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
            drain(missed: 1)
        }
    }

    @usableFromInline
    func drain(missed: Int) {
        var missed = missed
        while true {
            var batch = ContiguousArray<@Sendable () -> Void>()
            backlog.withLock { swap(&batch, &$0) }
            for work in batch { work() }
            missed = token.wrappingSubtract(missed, ordering: .acquiringAndReleasing).newValue
            if missed == 0 { return }
        }
    }
}
