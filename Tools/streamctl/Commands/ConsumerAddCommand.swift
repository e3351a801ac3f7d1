import ArgumentParser
import StreamProtocol

/// `streamctl consumer add STREAM NAME`: add a durable consumer.
struct ConsumerAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a durable consumer to a stream; adding one that exists with the same settings is not an error.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var parent: ConsumerCommand

    private var options: GlobalOptions { global.merged(with: parent.options) }

    @OptionGroup var names: ConsumerNames

    @Option(name: .long, help: ArgumentHelp(
        "Where it starts: all (the first retained event, the default), new (only events published from now on), or a sequence.",
        valueName: "all|new|SEQ"))
    var from = "all"

    @Option(name: .customLong("ack-wait"), help: ArgumentHelp(
        "How long a member has to acknowledge an event before it is delivered again (500ms, 30s, 5m; default 30s).", valueName: "duration"))
    var ackWait = "30s"

    @Option(name: .customLong("max-deliver"), help: ArgumentHelp(
        "Deliver an event at most N times; then it goes to --dead-letter, or is dropped (default: until acknowledged).", valueName: "N"))
    var maxDeliver: UInt32?

    @Option(name: .customLong("max-pending"), help: ArgumentHelp(
        "The most events delivered and not yet acknowledged at once (default 1000).", valueName: "N"))
    var maxPending: UInt32 = 1_000

    @Option(name: .customLong("dead-letter"), help: ArgumentHelp(
        "The names.stream that events delivered --max-deliver times are published to.", valueName: "stream"), completion: StreamNameCompletion.kind)
    var deadLetter: String?

    func validate() throws {
        if let deadLetter { try Daemon.validate(name: deadLetter, "--dead-letter") }
        _ = try config()
    }

    /// The configuration the options give.
    private func config() throws -> ConsumerConfig {
        let start: StartPosition
        switch from {
        case "all": start = .all
        case "new": start = .newOnly
        default:
            guard let sequence = UInt64(from), sequence > 0 else {
                throw ValidationError("--from must be all, new or a sequence of 1 or more, not \"\(from)\".")
            }
            start = .from(sequence: sequence)
        }
        let wait = try Parsing.milliseconds(ackWait, option: "--ack-wait")
        let config = ConsumerConfig(
            start: start, ackWait: .milliseconds(Int64(clamping: wait)), maxDeliver: maxDeliver, maxPending: maxPending, deadLetter: deadLetter)
        if let problem = config.problem { throw ValidationError(problem.prefix(1).uppercased() + problem.dropFirst()) }
        return config
    }

    func run() async throws {
        let config = try config()
        try await Daemon.run(options) { connection in
            let view = ConsumerView(try await connection.addConsumer(names.name, on: names.stream, config: config))
            try options.json ? Output.json(view) : Output.line("added consumer \(names.name) to \(names.stream): next \(view.nextSequence), \(view.configuration)")
        }
    }
}
