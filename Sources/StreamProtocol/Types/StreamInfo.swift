/// What a stream holds and how it is kept.
public struct StreamInfo: Sendable, Hashable {
    /// Whether the stream has ended.
    public enum State: UInt8, Sendable, Hashable {
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
    /// 0 when the stream is empty.
    public var firstSequence: UInt64
    /// 0 when the stream has never had an event.
    public var lastSequence: UInt64
    /// Microseconds since the Unix epoch; 0 when empty.
    public var firstTime: Int64
    /// Microseconds since the Unix epoch; 0 when empty.
    public var lastTime: Int64
    /// Bytes on disk, after compression.
    public var storedBytes: UInt64
    /// Bytes of the payloads as published.
    public var rawBytes: UInt64
    /// Live subscriptions on the server.
    public var subscribers: UInt32
    /// Whether the stream has ended.
    public var state: State
    /// Events per second stored in the stream over the last ~10 seconds, in thousandths (1500 = 1.5/s).
    public var publishRateMillis: UInt64

    /// The events per second stored in the stream over the last ~10 seconds.
    public var publishRate: Double { Double(publishRateMillis) / 1_000 }

    /// A stream description; zeros for an empty stream.
    public init(
        name: String, policy: StreamPolicy, count: UInt64 = 0, firstSequence: UInt64 = 0, lastSequence: UInt64 = 0,
        firstTime: Int64 = 0, lastTime: Int64 = 0, storedBytes: UInt64 = 0, rawBytes: UInt64 = 0,
        subscribers: UInt32 = 0, state: State = .open, publishRateMillis: UInt64 = 0
    ) {
        self.name = name
        self.policy = policy
        self.count = count
        self.firstSequence = firstSequence
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

extension StreamInfo {
    func write(to writer: inout WireWriter) throws {
        try writer.write(name, field: "stream_info.name")
        policy.write(to: &writer)
        for value in [count, firstSequence, lastSequence] { writer.write(value) }
        writer.write(firstTime)
        writer.write(lastTime)
        writer.write(storedBytes)
        writer.write(rawBytes)
        writer.write(subscribers)
        writer.write(state.rawValue)
        writer.write(publishRateMillis)
    }

    init(from reader: inout WireReader) throws {
        name = try reader.read(String.self, "stream_info.name")
        policy = try StreamPolicy(from: &reader)
        count = try reader.read(UInt64.self, "stream_info.count")
        firstSequence = try reader.read(UInt64.self, "stream_info.first_sequence")
        lastSequence = try reader.read(UInt64.self, "stream_info.last_sequence")
        firstTime = try reader.read(Int64.self, "stream_info.first_time")
        lastTime = try reader.read(Int64.self, "stream_info.last_time")
        storedBytes = try reader.read(UInt64.self, "stream_info.stored_bytes")
        rawBytes = try reader.read(UInt64.self, "stream_info.raw_bytes")
        subscribers = try reader.read(UInt32.self, "stream_info.subscribers")
        let rawState = try reader.read(UInt8.self, "stream_info.state")
        guard let state = State(rawValue: rawState) else {
            throw ProtocolError.malformed("stream_info.state is \(rawState), but must be 0...2")
        }
        self.state = state
        publishRateMillis = try reader.read(UInt64.self, "stream_info.publish_rate")
    }
}
