import ArgumentParser
import Foundation
import StreamClient
import StreamProtocol

/// `streamctl truncate STREAM`: remove old events, or with --dry-run say which would go.
struct TruncateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "truncate",
        abstract: "Remove a stream's old events: --before-seq S | --keep N | --older-than D; --dry-run only says what would go.",
        discussion: "Sequences are never reused: the stream goes on after its last sequence.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Option(name: .customLong("before-seq"), help: ArgumentHelp("Remove every event before sequence S.", valueName: "S"))
    var beforeSequence: UInt64?

    @Option(name: .long, help: ArgumentHelp("Keep only the last N events.", valueName: "N"))
    var keep: UInt64?

    @Option(name: .customLong("older-than"), help: ArgumentHelp("Remove events older than D (30s, 10m, 2h, 1d), than an ISO-8601 time, or than @SECONDS since the Unix epoch.", valueName: "D"))
    var olderThan: String?

    @Flag(name: .customLong("dry-run"), help: "Remove nothing; say what would be removed.")
    var dryRun = false

    struct Summary: Encodable {
        var stream: String
        var dryRun: Bool
        var removed: UInt64
        var firstRemoved: UInt64?
        var lastRemoved: UInt64?
        var firstSequence: UInt64
    }

    /// The stream's info, or nil when the daemon cannot read it from storage (a damaged stream); other
    /// failures (no such stream, …) are thrown.
    static func infoIfReadable(_ stream: String, _ connection: StreamConnection) async throws -> StreamInfo? {
        do {
            return try await connection.streamInfo(stream)
        } catch let StreamClientError.server(code, _) where code == .storageFailure {
            return nil
        }
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        guard [beforeSequence != nil, keep != nil, olderThan != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --before-seq, --keep and --older-than.")
        }
        if let olderThan { _ = try Parsing.time(olderThan, option: "--older-than") }
    }

    func run() async throws {
        let truncation: Truncation
        if let beforeSequence {
            truncation = .beforeSequence(beforeSequence)
        } else if let keep {
            truncation = .keepLast(keep)
        } else {
            truncation = .olderThan(microseconds: try Parsing.time(olderThan ?? "", option: "--older-than"))
        }
        try await Daemon.run(options) { connection in
            // The pre-check only sharpens the message and the summary: a damaged stream whose info cannot be
            // read must still be truncatable (that is how its damaged blocks are dropped).
            let before = try await Self.infoIfReadable(stream, connection)
            if let before, let beforeSequence, beforeSequence > before.lastSequence + 1 {
                throw CtlFailure(
                    "--before-seq \(beforeSequence) is past the end of \(stream), whose last sequence is \(before.lastSequence); "
                        + "use --before-seq \(before.lastSequence + 1) to remove every event.")
            }
            let result: (removed: UInt64, firstSequence: UInt64)
            do {
                result = try await connection.truncate(stream, truncation, dryRun: dryRun)
            } catch let error as StreamClientError {
                throw CtlFailure("cannot \(dryRun ? "dry-run the truncation of" : "truncate") \(stream): \(Daemon.message(for: error, socket: connection.socketPath))")
            }
            var summary = Summary(stream: stream, dryRun: dryRun, removed: result.removed, firstSequence: result.firstSequence)
            if result.removed > 0 {
                // Without the info, the removed range is known only when events remain after it.
                if let first = before?.firstSequence ?? (result.firstSequence > result.removed ? result.firstSequence - result.removed : nil) {
                    summary.firstRemoved = first
                    summary.lastRemoved = first + result.removed - 1
                }
            }
            if options.json { return try Output.json(summary) }
            let verb = dryRun ? "would remove" : "removed"
            var line = "\(verb) \(Formatting.count(result.removed, "event")) from \(stream)"
            if let first = summary.firstRemoved, let last = summary.lastRemoved { line += " (\(Formatting.sequences(first, last)))" }
            line += result.firstSequence == 0
                ? "; \(dryRun ? "it would be" : "it is now") empty"
                : "; \(dryRun ? "it would start" : "it now starts") at sequence \(result.firstSequence)"
            try Output.line(line)
        }
    }
}
