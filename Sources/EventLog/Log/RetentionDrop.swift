/// Events a stream's retention limits removed in one commit (an append, a policy change, or a pass
/// over streams with a maximum age), reported to `EventLogOptions.retentionObserver`.
///
/// Values are Sendable.
public struct RetentionDrop: Sendable, Equatable, CustomStringConvertible {
    /// A retention limit of a stream's policy.
    public enum Limit: String, Sendable, Equatable {
        /// The stream's capacity (events kept).
        case capacity
        /// The stream's maximum age.
        case maxAge = "max-age"
        /// The stream's maximum stored bytes.
        case maxBytes = "max-bytes"
    }

    /// The stream the events were removed from.
    public var stream: String
    /// How many events were removed.
    public var events: UInt64
    /// The stream's first retained sequence after the removal.
    public var firstSequence: UInt64
    /// The limits that removed them, in the order above.
    public var limits: [Limit]

    /// A report of `events` removed from `stream` by `limits`, leaving `firstSequence` first.
    public init(stream: String, events: UInt64, firstSequence: UInt64, limits: [Limit]) {
        self.stream = stream
        self.events = events
        self.firstSequence = firstSequence
        self.limits = limits
    }

    /// E.g. "retention removed 120 events of stream orders (capacity)".
    public var description: String {
        "retention removed \(events == 1 ? "1 event" : "\(events) events") of stream \(stream) (\(limits.map(\.rawValue).joined(separator: ", ")))"
    }
}
