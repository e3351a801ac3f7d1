/// A subject that relays each event to the observers attached at the time; nothing is kept.
///
/// A late observer of a terminated subject receives the terminal event. Thread-safe.
public final class PassthroughSubject<Value: Sendable, Failure: Error>: Subject {
    /// The events sent to the subject; observing it is observing the subject.
    public let signal: Signal<Value, Failure>
    @usableFromInline
    let core: SignalCore<Value, Failure>

    /// A subject with no observers yet.
    public init() {
        signal = Signal { _, _ in }
        core = signal.core
    }

    /// Sends `event` to the observers; see `Subject.send(_:)`.
    @inlinable
    public func send(_ event: Event<Value, Failure>) { core.send(event) }
}
