import ArgumentParser

/// `streamctl info STREAM`: everything the daemon knows about one stream.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show one stream: events, first and last sequence and time, sizes, compression, policy, subscribers, publish rate.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let view = StreamView(try await connection.streamInfo(stream))
            try options.json ? Output.json(view) : Output.line(view.text)
        }
    }
}
