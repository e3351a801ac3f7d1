import ArgumentParser

/// `streamctl consumer ls STREAM`: the consumers of a stream.
struct ConsumerListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "List the durable consumers of a stream with where each stands.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    private struct Document: Encodable {
        var stream: String
        var consumers: [ConsumerView]
    }

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let views = try await connection.consumers(of: stream).map(ConsumerView.init)
            if options.json { return try Output.json(Document(stream: stream, consumers: views)) }
            if views.isEmpty { return try Output.line("\(stream) has no consumers; add one with `streamctl consumer add \(stream) NAME`.") }
            try Output.line(Formatting.table([ConsumerView.header] + views.map(\.row)))
        }
    }
}
