/// What a stream holds and how it is kept, as of when it was read: the same value from an in-process
/// `EventLog` and from `streamd`.
///
/// Values are Sendable.
public struct StreamInfo: Hashable, Sendable {
    /// Whether the stream has ended.
    public enum State: UInt8, Hashable, Sendable {
        /// Still accepting events.
        case open = 0
        /// Ended by a stored completion.
        case completed = 1
        /// Ended by a stored failure.
        case failed = 2
    }

    /// The stream's name.
    public var name: String
    /// How the stream keeps its events.
    public var policy: StreamPolicy
    /// The number of retained events.
    public var count: UInt64
    /// The first retained sequence; `lastSequence + 1` when nothing is retained (where the next event
    /// will be).
    public var firstSequence: UInt64
    /// The last sequence ever assigned, retained or not (what `expectedLastSequence` compares with);
    /// 0 before the first append.
    public var lastSequence: UInt64
    /// The timestamp of the first retained event, in microseconds since the Unix epoch; 0 when
    /// nothing is retained (or when that event's block is damaged).
    public var firstTime: Int64
    /// The timestamp of `lastSequence`, in microseconds since the Unix epoch; 0 before the first append.
    public var lastTime: Int64
    /// Bytes of the stream's stored blocks, after compression.
    public var storedBytes: UInt64
    /// Bytes of the stream's blocks before compression (payloads and their framing).
    public var rawBytes: UInt64
    /// Live subscriptions in `streamd` (0 from an in-process log, which does not count its readers).
    public var subscribers: UInt32
    /// Whether the stream has ended.
    public var state: State
    /// Events per second stored over the last ~10 seconds, in thousandths (1500 = 1.5/s), as `streamd`
    /// measures it (0 from an in-process log).
    public var publishRateMillis: UInt64

    /// Events per second stored in the stream over the last ~10 seconds.
    public var publishRate: Double { Double(publishRateMillis) / 1_000 }

    /// A stream description; zeros for an empty stream (whose `firstSequence` is `lastSequence + 1`
    /// whatever is given).
    public init(
        name: String, policy: StreamPolicy = StreamPolicy(), count: UInt64 = 0, firstSequence: UInt64 = 0,
        lastSequence: UInt64 = 0, firstTime: Int64 = 0, lastTime: Int64 = 0, storedBytes: UInt64 = 0,
        rawBytes: UInt64 = 0, subscribers: UInt32 = 0, state: State = .open, publishRateMillis: UInt64 = 0
    ) {
        self.name = name
        self.policy = policy
        self.count = count
        self.firstSequence = count == 0 ? lastSequence + 1 : firstSequence
        self.lastSequence = lastSequence
        self.firstTime = firstTime
        self.lastTime = lastTime
        self.storedBytes = storedBytes
        self.rawBytes = rawBytes
        self.subscribers = subscribers
        self.state = state
        self.publishRateMillis = publishRateMillis
    }
}
