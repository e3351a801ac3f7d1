/// Where a durable consumer stands, as of when it was read: the same value from `streamd` and
/// `streamctl consumer info`.
///
/// Every event at or below `ackFloor` is acknowledged (or was dropped by the stream's retention);
/// events from `ackFloor + 1` to `nextSequence - 1` are acknowledged unless pending; `nextSequence` is
/// the first event no member has been given yet. Values are Sendable.
public struct ConsumerInfo: Hashable, Sendable {
    /// The stream the consumer reads.
    public var stream: String
    /// The consumer's name, unique within its stream.
    public var name: String
    /// How it hands out events.
    public var config: ConsumerConfig
    /// The last sequence at or below which every event is acknowledged.
    public var ackFloor: UInt64
    /// The next sequence to deliver for the first time.
    public var nextSequence: UInt64
    /// Events delivered and not yet acknowledged.
    public var pending: UInt32
    /// Of those, the events delivered more than once.
    public var redelivered: UInt32
    /// Events stored in the stream and not yet delivered.
    public var lag: UInt64
    /// Members attached now (0 from the log alone).
    public var members: UInt32

    /// The value with these fields.
    public init(
        stream: String, name: String, config: ConsumerConfig, ackFloor: UInt64, nextSequence: UInt64, pending: UInt32, redelivered: UInt32,
        lag: UInt64, members: UInt32
    ) {
        self.stream = stream
        self.name = name
        self.config = config
        self.ackFloor = ackFloor
        self.nextSequence = nextSequence
        self.pending = pending
        self.redelivered = redelivered
        self.lag = lag
        self.members = members
    }
}
