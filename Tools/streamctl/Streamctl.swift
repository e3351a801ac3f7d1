import ArgumentParser
import StreamProtocol

/// `streamctl`: look at and administer the streams of a running streamd.
@main
struct Streamctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streamctl",
        abstract: "Inspect, tail, publish to, replay, truncate and verify the streams of streamd.",
        discussion: """
            streamctl talks to a running streamd over its Unix domain socket: --socket, else \
            $STREAMD_SOCKET, else $XDG_RUNTIME_DIR/streamd.sock, else /tmp/streamd-<uid>/streamd.sock (the same \
            rules as streamd). Start the daemon with `swift run streamd`.

            Every verb takes --json to print one JSON document on standard output (its JSON Schema is \
            schemas/streamctl.schema.json); errors always go to standard error, with --json as one JSON document.

            Exit status: 0 on success, 64 on bad usage, 1 on failure (including a verify that finds problems).
            """,
        version: StreamdVersion.current,
        subcommands: [
            ListCommand.self, InfoCommand.self, StatsCommand.self, TailCommand.self, PublishCommand.self,
            CreateCommand.self, ConfigCommand.self, TruncateCommand.self, RemoveCommand.self, ReplayCommand.self,
            ExportCommand.self, ImportCommand.self, VerifyCommand.self, CompactCommand.self, ConsumerCommand.self, NextCommand.self,
        ]
    )

    /// --socket and --json may also come before the verb (`streamctl --socket PATH ls`).
    @OptionGroup var global: GlobalOptions
}
