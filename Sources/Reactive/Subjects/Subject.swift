/// A stream you can both send events into and observe: the input and output of a signal in one object.
///
/// Conforming types are thread-safe: `send` and `observe` may be called from any thread.
public protocol Subject<Value, Failure>: AnyObject, Sendable {
    associatedtype Value: Sendable
    associatedtype Failure: Error

    /// The events sent to the subject, as a signal; observing it is observing the subject.
    var signal: Signal<Value, Failure> { get }

    /// Sends an event to the subject's observers.
    func send(_ event: Event<Value, Failure>)
}

extension Subject {
    /// Sends a value.
    public func send(value: Value) { send(.value(value)) }

    /// Sends a failure; terminal.
    public func send(error: Failure) { send(.failed(error)) }

    /// Sends completion; terminal.
    public func sendCompleted() { send(.completed) }

    /// Sends interruption; terminal.
    public func sendInterrupted() { send(.interrupted) }

    /// An observer whose events are sent to this subject, e.g. to start a producer into it.
    public var input: Observer<Value, Failure> { Observer { [self] event in send(event) } }

    /// Attaches `observer`; see `Signal.observe(_:)`.
    @discardableResult
    public func observe(_ observer: Observer<Value, Failure>) -> any Disposable { signal.observe(observer) }

    /// Attaches a function of events; see `Signal.observe(_:)`.
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) -> any Disposable {
        signal.observe(action)
    }

    /// Attaches a function of values.
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        signal.observeValues(action)
    }

    /// A producer that observes this subject for as long as each start lasts.
    public var producer: SignalProducer<Value, Failure> { SignalProducer(signal) }
}
