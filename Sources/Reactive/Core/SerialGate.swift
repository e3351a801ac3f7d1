import Dispatch
import Synchronization

/// Serializes the work of one or more signal cores: deliveries never overlap, and reentrant work never
/// deadlocks.
///
/// The gate is a token taken with one compare-exchange. Two kinds of work pass through it:
/// - Sends (`perform`, and `SignalCore.send`'s inlined fast path): a thread that finds the token held
///   by *another* thread waits for it, then delivers its own event on its own thread. So a sender is
///   slowed to the pace of its observers (backpressure), and an event is delivered on the thread that
///   sent it, which is what `observe(on:)` relies on. A thread that already holds the token (a send from
///   inside an observer callback) queues its send instead; the token holder runs it after the current
///   event has reached every observer.
/// - Changes (`run`: attaching, detaching, releasing a signal): never wait. If the token is held they are
///   queued and the holder runs them before it lets go, so disposing an observation never blocks on a
///   delivery in progress.
///
/// The one way to deadlock is the one every locking stream library has: two threads, each inside a
/// delivery, each sending into the other's signal. Sends into the signal that is calling you, or into
/// any signal on the same thread, are always safe.
///
/// Thread-safe. One gate may serialize several cores: a signal derived from one upstream by a
/// single-source operator shares its upstream's gate, so a chain of operators takes one token per event.
@usableFromInline
final class SerialGate: Sendable {
    @usableFromInline
    let token = Atomic<Int>(0)
    /// The thread holding the token, or 0: how a reentrant send is told from another thread's.
    @usableFromInline
    let holder = Atomic<UInt>(0)
    /// Threads waiting to send; a release wakes one when there are any.
    @usableFromInline
    let waiting = Atomic<Int>(0)
    private let wakeUp = AtomicLazyReference<DispatchSemaphore>()
    private let backlog = Mutex<ContiguousArray<@Sendable () -> Void>>([])

    @usableFromInline
    init() {}

    /// Takes the token if it is free; the caller must then `release()` it.
    @inlinable
    func tryAcquire() -> Bool {
        guard token.compareExchange(expected: 0, desired: 1, ordering: .sequentiallyConsistent).exchanged else {
            return false
        }
        holder.store(CurrentThread.id, ordering: .relaxed)
        return true
    }

    /// Whether the calling thread holds the token.
    @usableFromInline
    var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == CurrentThread.id }

    /// Gives back the token, first running the work queued while it was held, and wakes a waiting sender.
    @inlinable
    func release() {
        holder.store(0, ordering: .relaxed)
        let missed = token.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
        if missed != 0 { drain(missed: missed) }
        if waiting.load(ordering: .sequentiallyConsistent) != 0 { wakeWaitingSender() }
    }

    /// Runs `work` as a send: now if the token is free, after waiting if another thread holds it, or
    /// queued behind the current delivery if this thread holds it.
    @usableFromInline
    func perform(_ work: @escaping @Sendable () -> Void) {
        if !tryAcquire() {
            if isHeldByCurrentThread { return enqueue(work) }
            acquireWaiting()
        }
        work()
        release()
    }

    /// Waits until this thread holds the token; for a thread that does not hold it already.
    @usableFromInline
    func acquireWaiting() {
        waiting.wrappingAdd(1, ordering: .sequentiallyConsistent)
        while !tryAcquire() { semaphore.wait() }
        waiting.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    /// Runs `work` now if the token is free, else queues it for the holder; never waits.
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
        if token.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue == 0 {
            // `drain` sets and clears the holder itself; clearing it again here, after the token is free,
            // could erase the claim of a thread that took the token in between.
            drain(missed: 1)
            if waiting.load(ordering: .sequentiallyConsistent) != 0 { wakeWaitingSender() }
        }
    }

    /// Runs queued work until no more arrives; the caller holds the token and `missed` counts it.
    @usableFromInline
    func drain(missed: Int) {
        let thread = CurrentThread.id
        var missed = missed
        while true {
            holder.store(thread, ordering: .relaxed)
            var batch = ContiguousArray<@Sendable () -> Void>()
            backlog.withLock { swap(&batch, &$0) }
            for work in batch { work() }
            holder.store(0, ordering: .relaxed)
            missed = token.wrappingSubtract(missed, ordering: .sequentiallyConsistent).newValue
            if missed == 0 { return }
        }
    }

    @usableFromInline
    func wakeWaitingSender() { semaphore.signal() }

    private var semaphore: DispatchSemaphore {
        wakeUp.load() ?? wakeUp.storeIfNil(DispatchSemaphore(value: 0))
    }
}
