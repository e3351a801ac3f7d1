import ArgumentParser

/// `streamctl info STREAM`: everything the daemon knows about one stream.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show one stream: events, first and last sequence and time, sizes, compression, policy, subscribers, publish rate.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The stream.")
    var stream: String

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(global) { connection in
            let view = StreamView(try await connection.streamInfo(stream))
            try global.json ? Output.json(view) : Output.line(view.text)
        }
    }
}
