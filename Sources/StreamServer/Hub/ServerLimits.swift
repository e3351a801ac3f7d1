import StreamProtocol

/// The limits a hub enforces on every connection it serves.
///
/// Values are Sendable.
public struct ServerLimits: Sendable, Hashable {
    /// The largest inbound frame accepted (after the length field); announced in `WELCOME`.
    public var maximumFrameLength: Int = 16 * 1024 * 1024
    /// The most live subscriptions one connection may hold.
    public var maximumSubscriptionsPerConnection: Int = 256
    /// The most streams the log may hold; a publish or create that would add one more fails.
    public var maximumStreams: Int = 100_000
    /// The most live events one subscription holds in memory before it falls back to reading the log.
    public var maximumBufferedEvents: Int = 1024
    /// The most payload bytes one subscription holds in memory before it falls back to reading the log.
    public var maximumBufferedBytes: Int = 4 * 1024 * 1024
    /// The most events put into one `EVENTS` frame.
    public var maximumEventsPerFrame: Int = 512
    /// About the most payload bytes put into one `EVENTS` frame (one larger event still goes alone).
    public var maximumEventBytesPerFrame: Int = 1024 * 1024
    /// About the most payload bytes one connection may have handed to the log and not yet seen
    /// committed; beyond it the connection is read no further until commits catch up.
    public var maximumPipelinedBytes: Int = 4 * 1024 * 1024
    /// Over how many of each stream's latest events message ids are remembered for de-duplication. The
    /// log stores the ids with their events, so they hold across restarts and, on PostgreSQL, across
    /// the daemons sharing it.
    public var deduplicationWindow: Int = 10_000
    /// The longest message id accepted, in UTF-8 bytes; a publish with a longer one is refused.
    public var maximumMessageIDBytes: Int = 128
    /// The most bytes of message ids one stream's window remembers (oldest forgotten first).
    public var deduplicationWindowBytes: Int = 2 * 1024 * 1024
    /// The most bytes of message ids all streams' windows together remember.
    public var deduplicationBytesTotal: Int = 64 * 1024 * 1024
    /// The most durable consumers one stream may have.
    public var maximumConsumersPerStream: Int = 256
    /// The protocol versions agreed in `HELLO`: all this build speaks. A narrower range makes the
    /// server what an older daemon is to a client (tests of the client's refusals use it).
    package var protocolVersions: ClosedRange<UInt16> = ProtocolVersions.supported
    /// The limits on connections: how many, how long they may stay silent, how much they may buffer.
    public var connections = ConnectionLimits()

    /// The defaults: 16 MiB frames, 256 subscriptions per connection, 100 000 streams, 1024 buffered events.
    public init() {}
}
