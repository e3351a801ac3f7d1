import ArgumentParser

/// `streamctl consumer rm STREAM NAME`: delete a consumer.
struct ConsumerRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a durable consumer; its members are told. The stream's events stay.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @OptionGroup var names: ConsumerNames

    private struct Summary: Encodable {
        var stream: String
        var consumer: String
        var deleted: Bool
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            try await connection.deleteConsumer(names.name, on: names.stream)
            try options.json ? Output.json(Summary(stream: names.stream, consumer: names.name, deleted: true)) : Output.line("deleted consumer \(names.name) of \(names.stream)")
        }
    }
}
