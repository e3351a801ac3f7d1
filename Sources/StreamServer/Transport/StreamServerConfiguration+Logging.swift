import Logging
import PostgresLog

extension StreamServerConfiguration {
    /// The configuration as log metadata, for the daemon's start-up line: database, socket,
    /// durability, access file, wake-up latency options and every limit (each a key named as its streamd option).
    ///
    /// Numbers are `.stringConvertible` integers, so a JSON log writes them as numbers.
    public var logMetadata: Logger.Metadata {
        let connections = limits.connections
        var metadata: Logger.Metadata = [
            "max-connections": .stringConvertible(connections.maximumConnections),
            "max-connections-per-user": .stringConvertible(connections.maximumConnectionsPerUser),
            "handshake-timeout": .string(Self.text(connections.handshakeTimeout)),
            "idle-timeout": .string(Self.text(connections.idleTimeout)),
            "frame-timeout": .string(Self.text(connections.frameTimeout)),
            "max-partial-frame-bytes": .stringConvertible(connections.maximumPartialFrameBytes),
            "max-frame-bytes": .stringConvertible(limits.maximumFrameLength),
            "max-subscriptions-per-connection": .stringConvertible(limits.maximumSubscriptionsPerConnection),
            "max-streams": .stringConvertible(limits.maximumStreams),
            "max-message-id-bytes": .stringConvertible(limits.maximumMessageIDBytes),
            "deduplication-window": .stringConvertible(limits.deduplicationWindow),
        ]
        let settings: Logger.Metadata = [
            "db": .string((try? PostgresAddress(databasePath))?.description ?? databasePath),
            "socket": .string(socketPath),
            "socket-mode": .string(String(socketMode, radix: 8)),
            "durability": .string("\(logOptions.durability)"),
            "acl": .string(accessFile ?? "none"),
            "idle-spin": .string(idleSpin > .zero ? Self.text(idleSpin) : "off"),
            "cpu-latency-request": .string(cpuLatencyRequest > .zero ? Self.text(cpuLatencyRequest) : "off"),
            "metrics": .string(metrics.map { "http://\($0.address)/metrics" } ?? "off"),
        ]
        metadata.merge(settings) { _, setting in setting }
        return metadata
    }

    /// `300 s`, `1 ms`, `0 s`.
    private static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return microseconds % 1000 == 0 ? "\(microseconds / 1000) ms" : "\(microseconds) µs"
    }
}
