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
