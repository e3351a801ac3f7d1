import ArgumentParser

/// `streamctl consumer rm STREAM NAME`: delete a consumer.
struct ConsumerRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a durable consumer; its members are told. The stream's events stay.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Argument(help: "The consumer.")
    var name: String

    private struct Summary: Encodable {
        var stream: String
        var consumer: String
        var deleted: Bool
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        try Daemon.validate(consumer: name)
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            try await connection.deleteConsumer(name, on: stream)
            try options.json ? Output.json(Summary(stream: stream, consumer: name, deleted: true)) : Output.line("deleted consumer \(name) of \(stream)")
        }
    }
}
