/// A cold stream: a recipe for a signal. Each `start` runs the start handler anew and gets its own
/// events, so side effects happen once per start.
///
/// Starting returns a disposable; disposing it interrupts the started signal and ends the lifetime
/// the start handler received, which cancels its work. Through operators, the interruption starts at
/// the innermost start and travels down, so an asynchronous operator delivers it on its scheduler,
/// after the events it already scheduled (see `StartInterrupter`).
///
/// Thread-safety: a producer is an immutable value; it may be started from any thread, any number of
/// times, concurrently.
///
/// ## Example
///
/// ```swift
/// let request = SignalProducer<String, Never> { observer, lifetime in
///     observer.send(value: "response")     // runs once per start
///     observer.sendCompleted()
/// }
/// let disposable = request.map { $0.uppercased() }.startWithValues { print($0) }
/// disposable.dispose()                     // interrupts the start if it is still running
/// ```
public struct SignalProducer<Value: Sendable, Failure: Error>: Sendable {
    /// The observers of this producer.
    public typealias Observer = Reactive.Observer<Value, Failure>
    /// The events of this producer.
    public typealias Event = Reactive.Event<Value, Failure>

    private let startHandler: @Sendable (_ observer: Observer, _ lifetime: Lifetime, _ interrupter: StartInterrupter) -> Void

    /// A producer that runs `startHandler` for every start.
    ///
    /// - Parameter startHandler: receives the observer to send events to and the lifetime of this
    ///   start, which ends when the started signal terminates or is disposed; attach to it whatever
    ///   must stop then.
    public init(_ startHandler: @escaping @Sendable (_ observer: Observer, _ lifetime: Lifetime) -> Void) {
        self.startHandler = { observer, lifetime, _ in startHandler(observer, lifetime) }
    }

    /// A producer whose start handler also gets the start's interrupter, to forward it to the upstream
    /// start it transforms; see `StartInterrupter`.
    init(
        forwardingInterruption startHandler: @escaping @Sendable (
            _ observer: Observer, _ lifetime: Lifetime, _ interrupter: StartInterrupter
        ) -> Void
    ) {
        self.startHandler = startHandler
    }

    /// A producer that, when started, observes `signal` until the start is disposed.
    public init(_ signal: Signal<Value, Failure>) {
        self.init { observer, lifetime in
            signal.observe(observer, during: lifetime)
        }
    }

    /// Creates the signal of one start, lets `setup` observe it, then runs the start handler.
    ///
    /// - Parameter setup: receives the signal and the disposable that interrupts this start. Observers
    ///   attached inside `setup` see every event, including those sent synchronously by the handler.
    public func startWithSignal<Result>(
        _ setup: (_ signal: Signal<Value, Failure>, _ interrupter: any Disposable) -> Result
    ) -> Result {
        let start = prepareStart()
        let result = setup(start.signal, start.interrupter)
        start.run()
        return result
    }

    /// One start, split in two: its signal and interrupter now, its start handler when `run` is
    /// called. For operators that must observe several producers' signals before starting any of them,
    /// without nesting one `startWithSignal` inside another per producer.
    func prepareStart() -> PreparedStart<Value, Failure> {
        var input: Observer!
        var lifetime: Lifetime!
        let signal = Signal<Value, Failure> { observer, signalLifetime in
            input = observer
            lifetime = signalLifetime
        }
        let core = signal.core
        let interrupter = StartInterrupter(interrupt: { [input] in input!.sendInterrupted() }) { [lifetime] action in
            // Runs where the signal terminates, under its gate, so reading its terminal event is safe.
            lifetime!.observeEnded {
                guard case .interrupted? = core.terminalEvent else { return action(false) }
                action(true)
            }
        }
        return PreparedStart(signal: signal, interrupter: interrupter) { [input, lifetime, startHandler] in
            withExtendedLifetime(signal) {
                if !lifetime!.hasEnded { startHandler(input!, lifetime!, interrupter) }
            }
        }
    }

    /// Starts the producer, sending its events to `observer`.
    ///
    /// - Returns: the disposable that interrupts this start.
    @discardableResult
    public func start(_ observer: Observer = Observer { _ in }) -> any Disposable {
        startWithSignal { signal, interrupter in
            signal.observe(observer)
            return interrupter
        }
    }

    /// Starts the producer, sending its events to `action`.
    @discardableResult
    public func start(_ action: @escaping @Sendable (Event) -> Void) -> any Disposable {
        start(Observer(action))
    }

    /// Starts the producer, sending its values to `action`.
    @discardableResult
    public func startWithValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        start(Observer(value: action))
    }

    /// Starts the producer, calling `action` on completion.
    @discardableResult
    public func startWithCompleted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        start(Observer(completed: action))
    }

    /// Starts the producer, calling `action` on failure.
    @discardableResult
    public func startWithFailed(_ action: @escaping @Sendable (Failure) -> Void) -> any Disposable {
        start(Observer(failed: action))
    }

    /// Starts the producer, calling `action` on interruption.
    @discardableResult
    public func startWithInterrupted(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        start(Observer(interrupted: action))
    }

    /// Starts the producer, sending its values and failure to `action` as `Result`s.
    @discardableResult
    public func startWithResult(_ action: @escaping @Sendable (Result<Value, Failure>) -> Void) -> any Disposable {
        startWithSignal { signal, interrupter in
            signal.observeResult(action)
            return interrupter
        }
    }
}

/// A start whose signal exists but whose start handler has not run yet; see `prepareStart()`.
struct PreparedStart<Value: Sendable, Failure: Error> {
    let signal: Signal<Value, Failure>
    let interrupter: any Disposable
    /// Runs the start handler; call it once, after observing `signal`.
    let run: () -> Void
}
