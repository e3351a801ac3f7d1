/// Something that happens on a stream: a value, or one of the three terminal events.
///
/// A stream sends any number of `value` events followed by at most one terminal event
/// (`failed`, `completed` or `interrupted`); nothing follows a terminal event.
/// `Failure` is `Never` for streams that cannot fail.
public enum Event<Value: Sendable, Failure: Error>: Sendable {
    /// A value produced by the stream.
    case value(Value)
    /// The stream failed with an error; terminal.
    case failed(Failure)
    /// The stream finished normally; terminal.
    case completed
    /// The stream was cancelled before it finished, usually because it was disposed; terminal.
    case interrupted

    /// Whether this event ends the stream.
    @inlinable
    public var isTerminating: Bool {
        if case .value = self { return false }
        return true
    }

    /// Whether this event is `completed`.
    @inlinable
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// The value carried by a `value` event, else `nil`.
    @inlinable
    public var value: Value? {
        if case let .value(value) = self { return value }
        return nil
    }

    /// The error carried by a `failed` event, else `nil`.
    @inlinable
    public var error: Failure? {
        if case let .failed(error) = self { return error }
        return nil
    }

    /// The same event with its value transformed; terminal events pass through.
    @inlinable
    public func map<U>(_ transform: (Value) -> U) -> Event<U, Failure> {
        switch self {
        case let .value(value): .value(transform(value))
        case let .failed(error): .failed(error)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }

    /// The same event with its error transformed; other events pass through.
    @inlinable
    public func mapError<F>(_ transform: (Failure) -> F) -> Event<Value, F> {
        switch self {
        case let .value(value): .value(value)
        case let .failed(error): .failed(transform(error))
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }

    /// This terminal event retyped for another value type; `nil` for a value event.
    @inlinable
    public func terminal<U>(as _: U.Type = U.self) -> Event<U, Failure>? {
        switch self {
        case .value: nil
        case let .failed(error): .failed(error)
        case .completed: .completed
        case .interrupted: .interrupted
        }
    }
}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}

extension Event: CustomStringConvertible {
    /// The event as written in a test or log line, e.g. `value(3)` or `completed`.
    public var description: String {
        switch self {
        case let .value(value): "value(\(value))"
        case let .failed(error): "failed(\(error))"
        case .completed: "completed"
        case .interrupted: "interrupted"
        }
    }
}
