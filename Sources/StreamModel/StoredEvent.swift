/// One stored value of a stream as a reader of any store receives it: its sequence, its timestamp and
/// its bytes. A stream's terminal event is not one of these: it ends the reading producer instead.
///
/// Values are immutable and Sendable.
public struct StoredEvent: Hashable, Sendable {
    /// The per-stream sequence number: 1, 2, 3, … never reused.
    public let sequence: UInt64
    /// When it was stored, in microseconds since the Unix epoch.
    public let timestamp: Int64
    /// The bytes that were appended.
    public let payload: [UInt8]

    /// An event.
    public init(sequence: UInt64, timestamp: Int64, payload: [UInt8]) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.payload = payload
    }
}
