/// What an append returns once it is durable: the sequences it got and their timestamp, from an
/// in-process `EventLog`, a persistent or remote subject, or `streamd`.
///
/// Values are immutable and Sendable.
public struct AppendReceipt: Hashable, Sendable {
    /// The stream appended to.
    public let stream: String
    /// The sequence of the first event appended.
    public let firstSequence: UInt64
    /// The sequence of the last event appended (equal to `firstSequence` for one event).
    public let lastSequence: UInt64
    /// The timestamp the events got, in microseconds since the Unix epoch.
    public let timestamp: Int64
    /// Whether `streamd` recognised the append's message id as one it had stored already, and stored
    /// nothing again: the sequences are the first append's.
    public let duplicate: Bool

    /// A receipt.
    public init(stream: String, firstSequence: UInt64, lastSequence: UInt64, timestamp: Int64, duplicate: Bool = false) {
        self.stream = stream
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.timestamp = timestamp
        self.duplicate = duplicate
    }

    /// A receipt for one event.
    public init(stream: String, sequence: UInt64, timestamp: Int64, duplicate: Bool = false) {
        self.init(stream: stream, firstSequence: sequence, lastSequence: sequence, timestamp: timestamp, duplicate: duplicate)
    }

    /// The sequence of a single-event append.
    public var sequence: UInt64 { firstSequence }
    /// All sequences of the append.
    public var sequences: ClosedRange<UInt64> { firstSequence...lastSequence }
}
