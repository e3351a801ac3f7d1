import ArgumentParser

/// `streamctl consumer info STREAM NAME`: where one consumer stands.
struct ConsumerInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show one durable consumer: acknowledged floor, next sequence, pending, redelivered, lag, members, settings.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @OptionGroup var names: ConsumerNames

    func run() async throws {
        try await Daemon.run(options) { connection in
            let view = ConsumerView(try await connection.consumerInfo(names.name, on: names.stream))
            try options.json ? Output.json(view) : Output.line(view.text)
        }
    }
}
