/// Daemon-wide figures, answering `GET_STATS`.
///
/// Values are Sendable.
public struct DaemonStats: Sendable, Hashable {
    /// How long the daemon has been serving, in milliseconds.
    public var uptimeMilliseconds: UInt64
    /// The daemon's software version, e.g. `0.1.0`.
    public var version: String
    /// The database file the daemon serves.
    public var databasePath: String
    /// The database's size on disk (file and write-ahead log), in bytes.
    public var databaseBytes: UInt64
    /// The number of streams.
    public var streams: UInt64
    /// Retained events over every stream.
    public var events: UInt64
    /// Stored (compressed) block bytes over every stream.
    public var storedBytes: UInt64
    /// The same blocks before compression, in bytes.
    public var rawBytes: UInt64
    /// Open client connections.
    public var connections: UInt32
    /// Live subscriptions over every connection.
    public var subscriptions: UInt32
    /// Events stored by publishes since the daemon started (duplicates not counted).
    public var publishedSinceStart: UInt64
    /// Events per second stored over the last ~10 seconds, in thousandths (1500 = 1.5 events/s).
    public var publishRateMillis: UInt64

    /// The events per second stored over the last ~10 seconds.
    public var publishRate: Double { Double(publishRateMillis) / 1_000 }

    /// Figures with these values.
    public init(
        uptimeMilliseconds: UInt64, version: String, databasePath: String, databaseBytes: UInt64, streams: UInt64,
        events: UInt64, storedBytes: UInt64, rawBytes: UInt64, connections: UInt32, subscriptions: UInt32,
        publishedSinceStart: UInt64, publishRateMillis: UInt64
    ) {
        self.uptimeMilliseconds = uptimeMilliseconds
        self.version = version
        self.databasePath = databasePath
        self.databaseBytes = databaseBytes
        self.streams = streams
        self.events = events
        self.storedBytes = storedBytes
        self.rawBytes = rawBytes
        self.connections = connections
        self.subscriptions = subscriptions
        self.publishedSinceStart = publishedSinceStart
        self.publishRateMillis = publishRateMillis
    }
}

extension DaemonStats {
    func write(to writer: inout WireWriter) throws {
        writer.write(uptimeMilliseconds)
        try writer.write(version, field: "stats.version")
        try writer.write(databasePath, field: "stats.database_path")
        for value in [databaseBytes, streams, events, storedBytes, rawBytes] { writer.write(value) }
        writer.write(connections)
        writer.write(subscriptions)
        writer.write(publishedSinceStart)
        writer.write(publishRateMillis)
    }

    init(from reader: inout WireReader) throws {
        uptimeMilliseconds = try reader.read(UInt64.self, "stats.uptime_ms")
        version = try reader.read(String.self, "stats.version")
        databasePath = try reader.read(String.self, "stats.database_path")
        databaseBytes = try reader.read(UInt64.self, "stats.database_bytes")
        streams = try reader.read(UInt64.self, "stats.streams")
        events = try reader.read(UInt64.self, "stats.events")
        storedBytes = try reader.read(UInt64.self, "stats.stored_bytes")
        rawBytes = try reader.read(UInt64.self, "stats.raw_bytes")
        connections = try reader.read(UInt32.self, "stats.connections")
        subscriptions = try reader.read(UInt32.self, "stats.subscriptions")
        publishedSinceStart = try reader.read(UInt64.self, "stats.published")
        publishRateMillis = try reader.read(UInt64.self, "stats.publish_rate")
    }
}
