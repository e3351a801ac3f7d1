import ArgumentParser
import StreamProtocol

/// `streamctl create STREAM`: a stream with a retention policy.
struct CreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a stream: --capacity N | --replay-last | --unlimited (default), with optional --max-age, --max-bytes, --dedup-events and --dedup-window.",
        discussion: "Creating a stream that exists with the same policy succeeds; with another policy it fails (use config).")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }
    @OptionGroup var policy: PolicyOptions

    @Argument(help: "The stream: 1...200 bytes of A-Z a-z 0-9 . _ -, not starting with '.'.")
    var stream: String

    func validate() throws {
        try Daemon.validate(name: stream)
        if policy.configOnlyGiven {
            throw ValidationError("--no-max-age, --no-max-bytes and --dedup-default are for config; a new stream has no limits and the default window unless given.")
        }
    }

    func run() async throws {
        let wanted = try policy.applied(to: StreamPolicy())
        try await Daemon.run(options) { connection in
            let view = StreamView(try await connection.createStream(stream, policy: wanted))
            try options.json ? Output.json(view) : Output.line("created \(stream): \(view.policy.summary)")
        }
    }
}

/// `streamctl config STREAM`: change a stream's retention policy.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Change a stream's policy; flags not given keep their current value. Retention applies at once.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }
    @OptionGroup var policy: PolicyOptions

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    func validate() throws {
        try Daemon.validate(name: stream)
        if policy.isEmpty {
            throw ValidationError(
                "give at least one of --capacity, --replay-last, --unlimited, --max-age, --max-bytes, --no-max-age, --no-max-bytes, --dedup-events, --dedup-window, --dedup-default.")
        }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let current = try await connection.streamInfo(stream)
            let view = StreamView(try await connection.configureStream(stream, policy: try policy.applied(to: current.policy)))
            try options.json ? Output.json(view) : Output.line("configured \(stream): \(view.policy.summary) (\(view.count) events retained)")
        }
    }
}
