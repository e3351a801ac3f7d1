/// Where a reader starts in a stream: the same cases for an in-process `EventLog`, a persistent or
/// remote subject, and a subscription through `streamd`.
///
/// Values are immutable and Sendable.
///
/// ## Example
///
/// ```swift
/// try log.read("orders", from: .from(sequence: 42)) { event in print(event.sequence); return true }
/// for try await event in connection.events(in: "orders", from: .last(10)) { print(event.sequence) }
/// let latest = RemoteReplaySubject<Double>(connection: connection, stream: "prices", replay: .newOnly)
/// ```
public enum StartPosition: Hashable, Sendable, CustomStringConvertible {
    /// The stream's own replay position (its policy's `replay`; `.all` unless set otherwise).
    case streamDefault
    /// Every retained event.
    case all
    /// The last `count` retained events (fewer if fewer are retained).
    case last(UInt64)
    /// From this sequence on, inclusive (from the first retained one if it was trimmed).
    case from(sequence: UInt64)
    /// Events whose timestamp is at or after this many microseconds since the Unix epoch.
    case since(microseconds: Int64)
    /// Nothing stored: only events appended from now on.
    case newOnly

    /// The value as a log line or error report shows it.
    public var description: String {
        switch self {
        case .streamDefault: "streamDefault"
        case .all: "all"
        case let .last(count): "last(\(count))"
        case let .from(sequence): "from(sequence: \(sequence))"
        case let .since(microseconds): "since(microseconds: \(microseconds))"
        case .newOnly: "newOnly"
        }
    }
}

extension StartPosition {
    /// The position's stored and wire form: a kind number and its argument.
    package var kind: UInt8 {
        switch self {
        case .streamDefault: 0
        case .all: 1
        case .last: 2
        case .from: 3
        case .since: 4
        case .newOnly: 5
        }
    }

    /// The argument stored beside `kind` (0 for the kinds that take none).
    package var argument: Int64 {
        switch self {
        case let .last(count): Int64(clamping: count)
        case let .from(sequence): Int64(clamping: sequence)
        case let .since(microseconds): microseconds
        default: 0
        }
    }

    /// The position stored as `kind` and `argument`; nil for an unknown kind.
    package init?(kind: UInt8, argument: Int64) {
        switch kind {
        case 0: self = .streamDefault
        case 1: self = .all
        case 2: self = .last(UInt64(max(0, argument)))
        case 3: self = .from(sequence: UInt64(max(0, argument)))
        case 4: self = .since(microseconds: argument)
        case 5: self = .newOnly
        default: return nil
        }
    }
}
