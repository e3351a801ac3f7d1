import Synchronization

/// A scheduler in virtual time, for testing time-based code without waiting.
///
/// Its clock starts at zero and moves only when told to (`advance(by:)`, `advance(to:)`, `run()`).
/// Scheduled actions wait in a queue ordered by due time, then by the order they were scheduled, and run
/// on the thread that advances the clock; while one runs, `now` reads its due time. A repeating action is
/// queued again one interval after its due time each time it runs (leeway is ignored).
///
/// Thread-safety: the queue and the clock are protected by a mutex, so actions may be scheduled and
/// disposed from any thread; advance from one thread at a time, since actions run outside the lock.
public final class TestScheduler: TimeScheduler {
    private struct Entry {
        var time: SchedulerTime
        var order: UInt64
        let action: ScheduledAction
        let interval: Duration?

        func precedes(_ other: Entry) -> Bool {
            (time, order) < (other.time, other.order)
        }
    }

    private struct State {
        var now: SchedulerTime
        var nextOrder: UInt64 = 0
        var queue = EntryHeap()
    }

    private let state: Mutex<State>

    /// A scheduler whose clock reads `start`, zero unless given.
    public init(start: SchedulerTime = .zero) {
        state = Mutex(State(now: start))
    }

    /// The virtual time: the last time advanced to, or the due time of the action running.
    public var now: SchedulerTime { state.withLock { $0.now } }

    /// The number of queued actions that have not been disposed.
    public var pendingActionCount: Int {
        state.withLock { $0.queue.entries.count(where: { !$0.action.isDisposed }) }
    }

    /// Whether no action is waiting to run.
    public var isIdle: Bool { pendingActionCount == 0 }

    /// Queues `action` at the current time; it runs on the next `advance`.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        enqueue(at: nil, interval: nil, action)
    }

    /// Queues `action` at `time`; it runs when the clock is advanced to it (on the next advance if past).
    @discardableResult
    public func schedule(at time: SchedulerTime, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        enqueue(at: time, interval: nil, action)
    }

    /// Queues `action` at `time`, and again one `interval` after each run; `leeway` is ignored.
    @discardableResult
    public func schedule(
        at time: SchedulerTime, every interval: Duration, leeway: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> (any Disposable)? {
        precondition(interval > .zero, "a repeating action needs a positive interval")
        return enqueue(at: time, interval: interval, action)
    }

    /// Runs every action that is due now, including those they schedule for now.
    public func advance() {
        advance(to: now)
    }

    /// Moves the clock forward by `interval`, running every action that falls due on the way, in order.
    public func advance(by interval: Duration) {
        advance(to: now + interval)
    }

    /// Moves the clock to `time`, running every action due by then, in order; an earlier `time` only
    /// runs what is due now, since the clock never goes back.
    public func advance(to time: SchedulerTime) {
        while let entry = nextEntry(dueBy: time) {
            guard let interval = entry.interval else {
                entry.action.run()
                continue
            }
            entry.action.runRepeating()
            guard !entry.action.isDisposed else { continue }
            state.withLock { state in
                var next = entry
                next.time = entry.time + interval
                next.order = state.nextOrder
                state.nextOrder += 1
                state.queue.insert(next)
            }
        }
    }

    /// Runs every queued action, moving the clock to each one's due time, until none is left.
    ///
    /// Never returns while a repeating action is scheduled; use `advance(by:)` for those.
    public func run() {
        // The clock stops at the last action's due time rather than jumping to the end of time.
        advance(to: SchedulerTime(nanoseconds: .max))
    }

    private func nextEntry(dueBy time: SchedulerTime) -> Entry? {
        state.withLock { state in
            while let first = state.queue.first {
                guard first.time <= time else { break }
                let entry = state.queue.removeFirst()
                if entry.action.isDisposed { continue }
                if entry.time > state.now { state.now = entry.time }
                return entry
            }
            if time > state.now && time.nanoseconds != .max { state.now = time }
            return nil
        }
    }

    private func enqueue(
        at time: SchedulerTime?, interval: Duration?, _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let scheduled = ScheduledAction(action)
        state.withLock { state in
            let entry = Entry(time: time ?? state.now, order: state.nextOrder, action: scheduled, interval: interval)
            state.nextOrder += 1
            state.queue.insert(entry)
        }
        return scheduled
    }

    /// A binary min-heap of entries: O(log n) insertion and removal of the earliest.
    private struct EntryHeap {
        var entries: [Entry] = []

        var first: Entry? { entries.first }

        mutating func insert(_ entry: Entry) {
            entries.append(entry)
            var child = entries.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard entries[child].precedes(entries[parent]) else { break }
                entries.swapAt(child, parent)
                child = parent
            }
        }

        mutating func removeFirst() -> Entry {
            entries.swapAt(0, entries.count - 1)
            let first = entries.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].precedes(entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].precedes(entries[smallest]) { smallest = right }
                guard smallest != parent else { return first }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
}
