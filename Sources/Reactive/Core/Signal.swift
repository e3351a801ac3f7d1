/// A hot stream of events: it runs whether or not anyone observes it, and an observer sees only the
/// events sent after it attached.
///
/// Guarantees: the events of one signal are delivered one at a time, in the order they were sent, to
/// each observer; nothing is delivered after a terminal event. An observer attached after termination
/// receives the terminal event at once.
///
/// Reentrancy: an observer may send on the signal that is calling it, observe it, or dispose any
/// observation from inside its callback. Such work runs after the current event has reached every
/// observer, in the order it was asked for, on the thread that is delivering; it never deadlocks. A
/// disposed observer receives nothing more, not even the rest of the event being delivered.
///
/// Lifetime: a signal stays alive while it has observers or while this handle is held. When both are
/// gone it is interrupted and its generator's lifetime ends, which releases everything upstream. A
/// pipe's signal is also interrupted when the last copy of its input is released.
///
/// Thread-safety: every method may be called from any thread.
///
/// ## Example
///
/// ```swift
/// let (clicks, input) = Signal<Int, Never>.pipe()
/// clicks.filter { $0 > 0 }.observeValues { print("click", $0) }
/// input.send(value: 1)        // prints "click 1" before send returns
/// input.sendCompleted()
/// ```
public final class Signal<Value: Sendable, Failure: Error>: Sendable {
    /// The observers of this signal.
    public typealias Observer = Reactive.Observer<Value, Failure>
    /// The events of this signal.
    public typealias Event = Reactive.Event<Value, Failure>

    @usableFromInline
    let core: SignalCore<Value, Failure>

    /// A signal whose events come from `generator`, which is run once, at once.
    ///
    /// - Parameter generator: receives the observer to send events to and the signal's lifetime, which
    ///   ends when the signal terminates or is released with no observers; attach to it whatever must
    ///   stop then.
    @inlinable
    public convenience init(_ generator: (_ input: Observer, _ lifetime: Lifetime) -> Void) {
        self.init(replay: nil, generator)
    }

    /// A signal with its own gate, optionally replaying the values it keeps to every new observer.
    @inlinable
    init(replay capacity: ReplayCapacity?, _ generator: (_ input: Observer, _ lifetime: Lifetime) -> Void) {
        let (lifetime, token) = Lifetime.make()
        let core = SignalCore<Value, Failure>(gate: SerialGate(), generatorLifetime: token, replayCapacity: capacity)
        self.core = core
        generator(Observer(core.send), lifetime)
    }

    /// A signal that shares `gate`: `generator`'s input may only be used while `gate` is held, which is
    /// the case inside the delivery of another signal on the same gate.
    @inlinable
    init(sharing gate: SerialGate, _ generator: (_ input: RelayInput<Value, Failure>, _ lifetime: Lifetime) -> Void) {
        let (lifetime, token) = Lifetime.make()
        let core = SignalCore<Value, Failure>(gate: gate, generatorLifetime: token)
        self.core = core
        generator(RelayInput(core), lifetime)
    }

    /// A signal on `gate` with no generator whose `history` is replayed to each new observer; see
    /// `Signal.withHistory(_:)`.
    init(gate: SerialGate, history: @escaping @Sendable (HistoryReplay<Value, Failure>) -> Bool) {
        let (_, token) = Lifetime.make()
        core = SignalCore(gate: gate, generatorLifetime: token, history: history)
    }

    /// A signal on `gate` whose generator gets a `GatedInput`; see `Signal.gated(_:)`.
    init(gate: SerialGate, gated generator: (_ input: GatedInput<Value, Failure>, _ lifetime: Lifetime) -> Void) {
        let (lifetime, token) = Lifetime.make()
        let core = SignalCore<Value, Failure>(gate: gate, generatorLifetime: token)
        self.core = core
        generator(GatedInput(core), lifetime)
    }

    deinit { core.releaseOutput() }

    /// A signal and the observer that sends on it.
    ///
    /// When the last copy of `input` is released, the signal is interrupted: a pipe nobody can send on
    /// any more ends instead of keeping its observers forever.
    ///
    /// - Parameter disposable: disposed when the signal terminates (its input released included) or is
    ///   released with no observers.
    public static func pipe(disposable: (any Disposable)? = nil) -> (output: Signal, input: Observer) {
        var send: (@Sendable (Event) -> Void)!
        let output = Signal { observer, lifetime in
            send = observer.action
            lifetime += disposable
        }
        let token = PipeInputToken(send)
        return (output, Observer { event in token.send(event) })
    }

    /// Attaches `observer`; it receives the events sent from now on until the returned disposable is
    /// disposed or the signal terminates.
    @inlinable @discardableResult
    public func observe(_ observer: Observer) -> any Disposable {
        observe(observer.action)
    }

    /// Attaches a function of events; see `observe(_:)`.
    @inlinable @discardableResult
    public func observe(_ action: @escaping @Sendable (Event) -> Void) -> any Disposable {
        let subscription = SignalSubscription(core: core, action: action)
        core.attach(subscription)
        return ObservationDisposable(subscription)
    }

    /// Attaches `observer` until `lifetime` ends, the signal terminates, or the returned disposable is
    /// disposed.
    ///
    /// The observation belongs to `lifetime` before it is attached, so ending the lifetime from inside a
    /// callback stops it at once, even in the middle of a replay (for a producer start that completes
    /// early, or an observer that ends its own lifetime).
    @inlinable @discardableResult
    public func observe(_ observer: Observer, during lifetime: Lifetime) -> any Disposable {
        let subscription = SignalSubscription(core: core, action: observer.action)
        let disposable = ObservationDisposable(subscription)
        lifetime += disposable
        core.attach(subscription)
        return disposable
    }

    /// Attaches a function of values; terminal events are ignored.
    @inlinable @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        observe { event in
            if case let .value(value) = event { action(value) }
        }
    }

    /// Attaches a function called when the signal completes.
    @discardableResult
    public func observeCompleted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        observe(Observer(completed: action))
    }

    /// Attaches a function called when the signal fails.
    @discardableResult
    public func observeFailed(_ action: @escaping @Sendable (Failure) -> Void) -> any Disposable {
        observe(Observer(failed: action))
    }

    /// Attaches a function called when the signal is interrupted.
    @discardableResult
    public func observeInterrupted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        observe(Observer(interrupted: action))
    }

    /// Attaches a function of values and failure as a `Result`; completion and interruption are ignored.
    @discardableResult
    public func observeResult(_ action: @escaping @Sendable (Result<Value, Failure>) -> Void) -> any Disposable {
        observe { event in
            switch event {
            case let .value(value): action(.success(value))
            case let .failed(error): action(.failure(error))
            case .completed, .interrupted: break
            }
        }
    }
}

extension Signal {
    /// A signal with its own gate whose generator gets a `GatedInput`: for operators whose sources
    /// update shared state and must send the result in the same step.
    static func gated(_ generator: (_ input: GatedInput<Value, Failure>, _ lifetime: Lifetime) -> Void) -> Signal {
        Signal(gate: SerialGate(), gated: generator)
    }

    /// A signal that never sends anything and never terminates.
    public static var never: Signal { Signal { _, _ in } }

    /// A signal that has already been interrupted.
    public static var empty: Signal { Signal { observer, _ in observer.sendInterrupted() } }
}
