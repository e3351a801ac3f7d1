import ArgumentParser
import StreamProtocol

/// `streamctl ls`: every stream, one line each.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the streams with their events, sizes and policies.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    private struct Listing: Encodable { var streams: [StreamView] }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let streams = try await connection.listStreams().map(StreamView.init)
            if options.json { return try Output.json(Listing(streams: streams)) }
            guard !streams.isEmpty else {
                return try Output.line("no streams yet; publish one with: streamctl publish NAME 'some event'")
            }
            let rows = [["NAME", "EVENTS", "FIRST", "LAST", "STORED", "RATIO", "SUBS", "RATE", "POLICY"]] + streams.map { stream in
                [
                    stream.name, "\(stream.count)", "\(stream.firstSequence)", "\(stream.lastSequence)",
                    Formatting.bytes(stream.storedBytes), stream.compressionRatio.map { String(format: "%.2f", $0) } ?? "-",
                    "\(stream.subscribers)", Formatting.rate(stream.publishRate),
                    stream.policy.summary + (stream.state == "open" ? "" : " (\(stream.state))"),
                ]
            }
            try Output.line(Formatting.table(rows))
        }
    }
}
