import ArgumentParser

/// `streamctl rm STREAM`: delete a stream and its events.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a stream and all its events; its subscribers are told. A new stream of that name starts at sequence 1.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.")
    var stream: String

    struct Summary: Encodable {
        var stream: String
        var deleted: Bool
        var events: UInt64
    }

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let info = try await connection.streamInfo(stream)
            try await connection.deleteStream(stream)
            let summary = Summary(stream: stream, deleted: true, events: info.count)
            try options.json ? Output.json(summary) : Output.line("deleted \(stream) (\(info.count) event\(info.count == 1 ? "" : "s"))")
        }
    }
}
