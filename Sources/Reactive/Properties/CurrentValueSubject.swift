import Synchronization

/// A subject that always has a current value: every new observer receives it first, then the changes.
///
/// `value` reads the latest value sent and setting it sends the new value. After a terminal event the
/// subject keeps its last value, ignores further sends and setting `value` does nothing; a late
/// observer receives the last value, then the terminal event.
///
/// Ordering: values reach observers in the order they were stored, even when set from several threads
/// at once. The value is stored under a lock together with a ticket in a first-in first-out queue, and
/// every send then asks the subject's serial gate for one delivery, which takes the oldest ticket. So
/// deliveries cannot overtake each other, although the lock is never held while an observer runs.
///
/// Reentrancy: an observer may set `value`, send, observe or dispose from inside its callback; that work
/// runs after the current event has reached every observer (see `Signal`). Inside a callback `value`
/// already returns the newest value stored, which may be ahead of the event being delivered.
///
/// Thread-safety: every member may be called from any thread.
public final class CurrentValueSubject<Value: Sendable, Failure: Error>: Subject {
    private struct State {
        var value: Value
        var pending: ContiguousArray<Event<Value, Failure>> = []
        var pendingHead = 0
        var isTerminated = false

        mutating func takeOldest() -> Event<Value, Failure> {
            let event = pending[pendingHead]
            pendingHead += 1
            if pendingHead == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
            }
            return event
        }
    }

    /// The current value, then every change; ends with the subject's terminal event.
    public let signal: Signal<Value, Failure>

    /// The changes only, without the current value first; ends with the subject's terminal event.
    public let changes: Signal<Value, Failure>

    private let state: Mutex<State>
    private let changesInput: RelayInput<Value, Failure>

    /// A subject whose current value is `value`.
    public init(_ value: Value) {
        state = Mutex(State(value: value))
        signal = Signal(replay: .last) { _, _ in }
        var input: RelayInput<Value, Failure>!
        // The changes share the gate of `signal`, so one delivery feeds both in the same order.
        changes = Signal(sharing: signal.core.gate) { observer, _ in input = observer }
        changesInput = input
        // Nobody observes yet: this only seeds the replay buffer with the first value.
        signal.core.send(.value(value))
    }

    /// The latest value sent. Setting it sends the new value to the observers, unless the subject has
    /// terminated.
    public var value: Value {
        get { state.withLock { $0.value } }
        set { send(.value(newValue)) }
    }

    /// Sends `event`: a value becomes the current value; a terminal event ends the subject.
    public func send(_ event: Event<Value, Failure>) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isTerminated else { return false }
            if case let .value(value) = event { state.value = value } else { state.isTerminated = true }
            state.pending.append(event)
            return true
        }
        if accepted { deliverOldest(waiting: !event.isTerminating) }
    }

    /// Replaces the current value with the result of `transform`, atomically, and sends it.
    ///
    /// `transform` runs under the subject's lock: it must not touch this subject. Does nothing but return
    /// `transform`'s result when the subject has terminated (the mutation is discarded).
    @discardableResult
    public func modify<Result>(_ transform: (inout Value) throws -> Result) rethrows -> Result {
        let (result, accepted) = try state.withLock { state -> (Result, Bool) in
            var value = state.value
            let result = try transform(&value)
            guard !state.isTerminated else { return (result, false) }
            state.value = value
            state.pending.append(.value(value))
            return (result, true)
        }
        if accepted { deliverOldest(waiting: true) }
        return result
    }

    /// Delivers the oldest stored event. Each accepted send calls this exactly once, so the gate's
    /// deliveries take the stored events one for one, in storage order, whichever thread runs them.
    ///
    /// A value waits for a delivery in progress on another thread, as any send does. A terminal event
    /// never waits (it is what a released property sends, and releasing must not wait for a delivery);
    /// it is queued for the thread delivering, and the storage order still puts it last.
    private func deliverOldest(waiting: Bool) {
        let delivery: @Sendable () -> Void = { [self] in
            let event = state.withLock { $0.takeOldest() }
            signal.core.deliver(event)
            changesInput.send(event)
        }
        if waiting { signal.core.gate.perform(delivery) } else { signal.core.gate.run(delivery) }
    }
}
