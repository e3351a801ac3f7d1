/// One stored event: its sequence number, timestamp, kind and bytes.
///
/// Values are immutable and Sendable.
public struct LogEvent: Hashable, Sendable {
    /// What an event records: a value, or the end of the stream.
    public enum Kind: UInt8, Hashable, Sendable {
        /// An ordinary value; `payload` holds its bytes.
        case value = 0
        /// The stream completed; `payload` is empty.
        case completed = 1
        /// The stream failed; `payload` is the failure message in UTF-8.
        case failed = 2
    }

    /// Per-stream sequence number: 1, 2, 3, … never reused.
    public let sequence: UInt64
    /// Microseconds since the Unix epoch, taken by the writer when it committed the event.
    public let timestamp: Int64
    /// Value or terminal.
    public let kind: Kind
    /// The event's bytes (for `.failed`, the message).
    public let payload: [UInt8]

    /// An event (used by the log; tests and bridges may build them to compare).
    public init(sequence: UInt64, timestamp: Int64, kind: Kind = .value, payload: [UInt8]) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.kind = kind
        self.payload = payload
    }

    /// The failure message of a `.failed` event, nil otherwise.
    public var failureMessage: String? { kind == .failed ? String(decoding: payload, as: UTF8.self) : nil }
}

/// A stored event seen without copying: `payload` points into the log's decode buffer and is valid
/// only inside the closure that received it.
///
/// Not Sendable: it must not escape that closure.
public struct LogEventView {
    /// Per-stream sequence number.
    public let sequence: UInt64
    /// Microseconds since the Unix epoch.
    public let timestamp: Int64
    /// Value or terminal.
    public let kind: LogEvent.Kind
    /// The bytes, valid only during the callback.
    public let payload: UnsafeRawBufferPointer

    /// A copy that may be kept.
    public func copy() -> LogEvent {
        LogEvent(sequence: sequence, timestamp: timestamp, kind: kind, payload: [UInt8](payload))
    }
}

@available(*, unavailable)
extension LogEventView: Sendable {}

/// What an append returns once its transaction committed: the sequences it got and their timestamp.
///
/// Values are immutable and Sendable.
public struct AppendReceipt: Hashable, Sendable {
    /// The stream appended to.
    public let stream: String
    /// The sequence of the first event appended.
    public let firstSequence: UInt64
    /// The sequence of the last event appended (equal to `firstSequence` for one event).
    public let lastSequence: UInt64
    /// The timestamp every event of the append got (microseconds since the Unix epoch).
    public let timestamp: Int64

    /// The sequence of a single-event append.
    public var sequence: UInt64 { firstSequence }
    /// All sequences of the append.
    public var sequences: ClosedRange<UInt64> { firstSequence...lastSequence }
}

/// A stream's catalog entry: its policy and positions, as of when it was read.
///
/// Values are immutable and Sendable.
public struct StreamInfo: Hashable, Sendable {
    /// The stream's name.
    public let name: String
    /// Its retention and replay policy.
    public let policy: StreamPolicy
    /// The first retained sequence (equals `lastSequence + 1` when nothing is retained).
    public let firstSequence: UInt64
    /// The last sequence ever assigned (0 before the first append).
    public let lastSequence: UInt64
    /// The timestamp of `lastSequence` (0 before the first append).
    public let lastTimestamp: Int64
    /// Bytes of the stream's stored blocks.
    public let storedBytes: Int64
    /// `.completed` or `.failed` when the stream stored a terminal event; nil while it is open.
    public let terminal: LogEvent.Kind?
    /// When the stream was created, in microseconds since the Unix epoch: a stream deleted and created
    /// again under the same name is a new life of it, with sequences starting at 1 again.
    public let created: Int64

    /// The number of retained events.
    public var retainedCount: UInt64 {
        // A damaged catalog row may have first > last + 1; count that as empty rather than trap.
        lastSequence >= firstSequence ? lastSequence - firstSequence + 1 : 0
    }
}
