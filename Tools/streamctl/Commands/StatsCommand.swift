import ArgumentParser
import StreamProtocol

/// `streamctl stats`: daemon-wide figures.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the daemon: version, uptime, database, streams, events, bytes, connections, publish rate.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    private struct View: Encodable {
        var version: String
        var streamctlVersion: String
        var protocolVersion: UInt16
        var socket: String
        var uptimeSeconds: Double
        var databasePath: String
        var databaseBytes: UInt64
        var streams: UInt64
        var events: UInt64
        var storedBytes: UInt64
        var rawBytes: UInt64
        var compressionRatio: Double?
        var connections: UInt32
        var subscriptions: UInt32
        var publishedSinceStart: UInt64
        var publishRate: Double
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let stats = try await connection.stats()
            let view = View(
                version: stats.version, streamctlVersion: StreamdVersion.current, protocolVersion: connection.protocolVersion, socket: connection.socketPath,
                uptimeSeconds: Double(stats.uptimeMilliseconds) / 1_000, databasePath: stats.databasePath,
                databaseBytes: stats.databaseBytes, streams: stats.streams, events: stats.events, storedBytes: stats.storedBytes,
                rawBytes: stats.rawBytes, compressionRatio: Formatting.ratio(stored: stats.storedBytes, raw: stats.rawBytes),
                connections: stats.connections, subscriptions: stats.subscriptions,
                publishedSinceStart: stats.publishedSinceStart, publishRate: stats.publishRate)
            if options.json { return try Output.json(view) }
            try Output.line(Formatting.table([
                ["streamd", "\(view.version), protocol \(view.protocolVersion), up \(Formatting.uptime(milliseconds: stats.uptimeMilliseconds))"],
                ["streamctl", view.streamctlVersion],
                ["socket", view.socket],
                ["database", "\(view.databasePath) (\(Formatting.bytes(view.databaseBytes)))"],
                ["streams", "\(view.streams)"],
                ["events", "\(view.events)"],
                ["stored", Formatting.bytes(view.storedBytes) + " (raw \(Formatting.bytes(view.rawBytes))"
                    + (view.compressionRatio.map { String(format: ", ratio %.3f", $0) } ?? "") + ")"],
                ["connections", "\(view.connections)"],
                ["subscriptions", "\(view.subscriptions)"],
                ["published", "\(view.publishedSinceStart) since start, \(Formatting.rate(view.publishRate)) over the last 10 s"],
            ]))
        }
    }
}
