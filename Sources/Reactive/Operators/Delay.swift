import Synchronization

extension Signal {
    /// The same values and completion, each sent `interval` later on `scheduler`.
    ///
    /// Failure and interruption are not delayed: they are sent on `scheduler` at once, and values still
    /// waiting are dropped (as in ReactiveSwift). Disposing the returned signal cancels the waiting work.
    public func delay(_ interval: Duration, on scheduler: any TimeScheduler) -> Signal {
        Signal { downstream, lifetime in
            let queue = DelayQueue(interval: interval, scheduler: scheduler, downstream: downstream)
            lifetime += queue
            lifetime += observe { event in
                switch event {
                case .value, .completed:
                    queue.enqueue(event)
                case .failed, .interrupted:
                    queue.dispose()
                    lifetime += scheduler.schedule { downstream.send(event) }
                }
            }
        }
    }
}

extension SignalProducer {
    /// The same values and completion, each sent `interval` later; see `Signal.delay(_:on:)`.
    public func delay(_ interval: Duration, on scheduler: any TimeScheduler) -> SignalProducer {
        lift { $0.delay(interval, on: scheduler) }
    }
}

/// The events a `delay` holds back, in arrival order, with one scheduled drain for the earliest.
///
/// Every event waits the same interval, so due times only grow: one pending action, for the head of the
/// queue, is enough however many events wait, and each drain sends everything due, which keeps the
/// order even on a scheduler that does not order equal deadlines.
/// Thread-safety: events are enqueued from the upstream's delivery and drained on the scheduler; the queue
/// is under a mutex and events are sent outside it.
private final class DelayQueue<Value: Sendable, Failure: Error>: Disposable {
    private struct State {
        var waiting: [(due: SchedulerTime, event: Event<Value, Failure>)] = []
        var head = 0
        var isDrainScheduled = false
        var isDisposed = false

        mutating func popFirst() -> Event<Value, Failure> {
            let event = waiting[head].event
            head += 1
            // Compact once the sent prefix is the larger half, so the buffer stays proportional to what waits.
            if head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    private enum Step {
        case send(Event<Value, Failure>)
        case wait(until: SchedulerTime)
        case stop
    }

    private let interval: Duration
    private let scheduler: any TimeScheduler
    private let downstream: Observer<Value, Failure>
    private let state = Mutex(State())
    private let drainAction = ScheduledSlot()

    init(interval: Duration, scheduler: any TimeScheduler, downstream: Observer<Value, Failure>) {
        self.interval = interval
        self.scheduler = scheduler
        self.downstream = downstream
    }

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func dispose() {
        state.withLock { state in
            state.isDisposed = true
            state.waiting = []
            state.head = 0
        }
        drainAction.dispose()
    }

    func enqueue(_ event: Event<Value, Failure>) {
        let due = scheduler.now + interval
        let mustSchedule = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            state.waiting.append((due, event))
            defer { state.isDrainScheduled = true }
            return !state.isDrainScheduled
        }
        if mustSchedule { scheduleDrain(at: due) }
    }

    private func scheduleDrain(at time: SchedulerTime) {
        drainAction.schedule { scheduler.schedule(at: time) { [self] in drain() } }
    }

    private func drain() {
        while true {
            let now = scheduler.now
            let step = state.withLock { state -> Step in
                guard !state.isDisposed, state.head < state.waiting.count else {
                    state.isDrainScheduled = false
                    return .stop
                }
                let due = state.waiting[state.head].due
                return due <= now ? .send(state.popFirst()) : .wait(until: due)
            }
            switch step {
            case let .send(event): downstream.send(event)
            case let .wait(until: due): return scheduleDrain(at: due)
            case .stop: return
            }
        }
    }
}
