/// A subject that keeps the latest values, up to its capacity, and replays them (then the terminal
/// event, if any) to every new observer before its live events, with nothing missed or doubled at the
/// hand-over.
///
/// Memory is bounded by the capacity. Replay and live delivery run under the subject's serial gate, so a
/// send that races a new observer is delivered to it exactly once, after its replay. Thread-safe.
///
/// Replay happens when an observer attaches. Signal operators attach when they are applied, so to
/// apply operators to the replay, start from `producer`: `subject.producer.map(f).start(observer)`
/// replays through `map` for every start, while `subject.signal.map(f)` consumes the replay once, at the
/// moment it is built. A start that ends early (`take(first:)`) stops its replay at once.
///
/// ## Example
///
/// ```swift
/// let prices = ReplaySubject<Double, Never>(capacity: 100)       // keeps the last 100 values
/// prices.send(value: 101.5)
/// prices.producer.map { $0 * 2 }.startWithValues { print($0) }   // replays 203.0, then live values
/// ```
public final class ReplaySubject<Value: Sendable, Failure: Error>: Subject {
    /// The events sent to the subject; observing it is observing the subject.
    public let signal: Signal<Value, Failure>
    @usableFromInline
    let core: SignalCore<Value, Failure>

    /// The policy this subject keeps values by.
    public let capacity: ReplayCapacity

    /// A subject that keeps values as `capacity` says: `.unlimited`, `.last(n)`, or `.last` (replayLast).
    public init(capacity: ReplayCapacity = .unlimited) {
        self.capacity = capacity
        signal = Signal(replay: capacity) { _, _ in }
        core = signal.core
    }

    /// Sends `event` to the observers; see `Subject.send(_:)`.
    @inlinable
    public func send(_ event: Event<Value, Failure>) { core.send(event) }
}
