import ArgumentParser
import Foundation
import StreamProtocol

/// `streamctl ls`: every stream, one line each.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the streams with their events, sizes, last activity and policies.",
        discussion: """
            LAST ACTIVITY is how long ago the stream's last event was stored (`never` for a stream that never \
            had one); --json gives the moment itself (last_time).
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    private struct Listing: Encodable { var streams: [StreamView] }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let infos = try await connection.listStreams()
            let streams = infos.map(StreamView.init)
            if options.json { return try Output.json(Listing(streams: streams)) }
            guard !streams.isEmpty else {
                return try Output.line("no streams yet; publish one with: streamctl publish NAME 'some event'")
            }
            let now = Date()
            let header = ["NAME", "EVENTS", "FIRST", "LAST", "LAST ACTIVITY", "STORED", "RATIO", "SUBS", "RATE", "POLICY"]
            let rows = [header] + zip(infos, streams).map { info, stream in
                [
                    stream.name, "\(stream.count)", "\(stream.firstSequence)", "\(stream.lastSequence)",
                    info.lastSequence > 0 ? Formatting.ago(info.lastTime, now: now) : "never",
                    Formatting.bytes(stream.storedBytes), stream.compressionRatio.map { String(format: "%.2f", $0) } ?? "-",
                    "\(stream.subscribers)", Formatting.rate(stream.publishRate),
                    stream.policy.summary + (stream.state == "open" ? "" : " (\(stream.state))"),
                ]
            }
            try Output.line(Formatting.table(rows))
        }
    }
}
