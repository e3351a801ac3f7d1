/// The receiving end of a stream: a function of events.
///
/// An observer is a value that wraps one `@Sendable` function, so it may be copied and called from
/// any thread. It enforces nothing by itself; the signal it observes guarantees that its events are
/// serialized and that nothing follows a terminal event.
public struct Observer<Value: Sendable, Failure: Error>: Sendable {
    /// The function that receives each event.
    public let action: @Sendable (Event<Value, Failure>) -> Void

    /// An observer that calls `action` with every event.
    @inlinable
    public init(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.action = action
    }

    /// An observer with a handler per kind of event; the handlers left out ignore their events.
    public init(
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil
    ) {
        self.action = { event in
            switch event {
            case let .value(v): value?(v)
            case let .failed(error): failed?(error)
            case .completed: completed?()
            case .interrupted: interrupted?()
            }
        }
    }

    /// Sends an event.
    @inlinable
    public func send(_ event: Event<Value, Failure>) { action(event) }

    /// Sends a value.
    @inlinable
    public func send(value: Value) { action(.value(value)) }

    /// Sends a failure; terminal.
    @inlinable
    public func send(error: Failure) { action(.failed(error)) }

    /// Sends completion; terminal.
    @inlinable
    public func sendCompleted() { action(.completed) }

    /// Sends interruption; terminal.
    @inlinable
    public func sendInterrupted() { action(.interrupted) }
}
