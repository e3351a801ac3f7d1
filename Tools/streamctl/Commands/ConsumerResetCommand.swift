import ArgumentParser

/// `streamctl consumer reset STREAM NAME --to-seq S`: move a consumer.
struct ConsumerResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Move a durable consumer so its next delivery is sequence S, forgetting the events it awaits acknowledgements for.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @OptionGroup var names: ConsumerNames

    @Option(name: .customLong("to-seq"), help: ArgumentHelp("The sequence to deliver next (1 or more).", valueName: "S"))
    var sequence: UInt64

    func validate() throws {
        guard sequence > 0 else { throw ValidationError("--to-seq must be 1 or more.") }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let view = ConsumerView(try await connection.resetConsumer(names.name, on: names.stream, to: sequence))
            try options.json ? Output.json(view) : Output.line("reset consumer \(names.name) of \(names.stream): next \(view.nextSequence), lag \(Formatting.count(view.lag, "event"))")
        }
    }
}
