import Synchronization

/// The engine behind every `Signal`: its observers, its terminal state and its optional replay buffer.
///
/// Thread-safety: every piece of work on a core (delivering an event, attaching or detaching an
/// observer, releasing the output) runs under its `SerialGate`, so events are never delivered
/// concurrently, and work asked for from inside an observer callback (a reentrant send, observe or
/// dispose) runs after the current event instead of deadlocking. A core made by a single-source operator
/// shares its upstream's gate and is fed only from inside the upstream's delivery, which already holds
/// the gate; that is why `deliver` may be called directly there.
///
/// `@unchecked Sendable` is sound because the `var` fields below are read and written only while the
/// gate is held, and the gate's acquiring/releasing atomic operations order each holder's accesses after
/// the previous holder's. For the same reason their dynamic exclusivity checks are turned off.
@usableFromInline
final class SignalCore<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    let gate: SerialGate
    @usableFromInline
    let generatorLifetime: Lifetime.Token

    // Owned by the gate holder.
    @usableFromInline @exclusivity(unchecked)
    var subscriptions: ContiguousArray<SignalSubscription<Value, Failure>> = [] {
        didSet { deliveryList.rebuild(from: subscriptions) }
    }
    @usableFromInline @exclusivity(unchecked)
    var deliveryList = DeliveryList<SignalSubscription<Value, Failure>>()
    @usableFromInline @exclusivity(unchecked)
    var terminalEvent: Event<Value, Failure>?
    @exclusivity(unchecked)
    private var isOutputReleased = false
    @usableFromInline @exclusivity(unchecked)
    var replayBuffer: ReplayBuffer<Value>?
    /// History kept outside memory (a persistent subject's log), replayed to each new observer before it
    /// joins; returns whether it sent a terminal event.
    @usableFromInline
    let history: (@Sendable (HistoryReplay<Value, Failure>) -> Bool)?

    @usableFromInline
    init(
        gate: SerialGate, generatorLifetime: Lifetime.Token, replayCapacity: ReplayCapacity? = nil,
        history: (@Sendable (HistoryReplay<Value, Failure>) -> Bool)? = nil
    ) {
        self.gate = gate
        self.generatorLifetime = generatorLifetime
        self.replayBuffer = replayCapacity.map(ReplayBuffer.init)
        self.history = history
    }

    deinit { deliveryList.deallocate() }

    // MARK: Entry points, callable from any thread

    /// Delivers `event` to the current observers, in order with every other event.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        if gate.tryAcquire() {
            deliver(event)
            gate.release()
        } else {
            sendContended(event)
        }
    }

    /// A send that found the gate taken: queued if this thread is delivering (a reentrant send), else
    /// delivered on this thread once the other thread is done.
    ///
    /// An interruption never waits: it is what disposal sends, and a thread disposing from inside one
    /// delivery must not wait for a thread that may be waiting for it. It is queued for the holder, as
    /// the changes of `SerialGate.run` are.
    @usableFromInline
    func sendContended(_ event: Event<Value, Failure>) {
        if case .interrupted = event {
            gate.run { self.deliver(event) }
        } else if gate.isHeldByCurrentThread {
            gate.enqueue { self.deliver(event) }
        } else {
            gate.acquireWaiting()
            deliver(event)
            gate.release()
        }
    }

    /// Attaches `subscription`. A change, so it never waits, except on a signal whose history lives
    /// outside memory: there the attaching thread waits for a delivery in progress (as a send does), so
    /// that `observe` returns with the history delivered; from inside the signal's own delivery it is
    /// queued, as always.
    @inlinable
    func attach(_ subscription: SignalSubscription<Value, Failure>) {
        if history == nil {
            gate.run { self.add(subscription) }
        } else {
            gate.perform { self.add(subscription) }
        }
    }

    func detach(_ subscription: SignalSubscription<Value, Failure>) { gate.run { self.remove(subscription) } }

    /// Called when the last `Signal` handle goes away: with no observers left, the core tears down.
    func releaseOutput() {
        gate.run {
            self.isOutputReleased = true
            if self.subscriptions.isEmpty { self.tearDown() }
        }
    }

    // MARK: Work, run only by the token holder

    /// Delivers `event`; the caller holds the gate.
    @inlinable @inline(__always)
    func deliver(_ event: Event<Value, Failure>) {
        guard terminalEvent == nil else { return }
        guard case let .value(value) = event else { return terminate(with: event) }
        replayBuffer?.append(value)
        deliveryList.forEach { subscription in
            if subscription.isActive { subscription.action(event) }
        }
    }

    @usableFromInline
    func terminate(with event: Event<Value, Failure>) {
        terminalEvent = event
        let observers = subscriptions
        subscriptions = []
        for subscription in observers where subscription.isActive {
            subscription.action(event)
        }
        generatorLifetime.end()
    }

    @inlinable
    func add(_ subscription: SignalSubscription<Value, Failure>) {
        if let history, history(HistoryReplay(subscription)) { return }
        if let replayBuffer {
            for value in replayBuffer where subscription.isActive {
                subscription.action(.value(value))
            }
        }
        if let terminalEvent {
            if subscription.isActive { subscription.action(terminalEvent) }
            return
        }
        guard subscription.isActive else { return }
        subscriptions.append(subscription)
    }

    private func remove(_ subscription: SignalSubscription<Value, Failure>) {
        guard let index = subscriptions.firstIndex(where: { $0 === subscription }) else { return }
        subscriptions.remove(at: index)
        if subscriptions.isEmpty && isOutputReleased { tearDown() }
    }

    private func tearDown() {
        guard terminalEvent == nil else { return }
        terminalEvent = .interrupted
        replayBuffer = nil
        generatorLifetime.end()
    }
}
