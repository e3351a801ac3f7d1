import ArgumentParser
import Foundation
import StreamClient

/// `streamctl publish STREAM [DATA]`: one event from the argument, or one per line of standard input.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish one event (DATA), or one event per line of standard input, in batches.",
        discussion: "A stream that does not exist is created with the default policy (unlimited). Each batch is one durable commit.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.")
    var stream: String

    @Argument(help: "The event's payload; without it, each line of standard input is one event.")
    var data: String?

    @Option(name: .customLong("batch-size"), help: ArgumentHelp("Events per batch when reading standard input.", valueName: "N"))
    var batchSize: Int = 1000

    struct Summary: Encodable {
        var stream: String
        var published: UInt64
        var duplicates: UInt64
        var firstSequence: UInt64?
        var lastSequence: UInt64?
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        guard (1...100_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1...100000.") }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            var summary = Summary(stream: stream, published: 0, duplicates: 0)
            func take(_ receipts: [Published]) {
                for receipt in receipts {
                    if receipt.duplicate { summary.duplicates += 1; continue }
                    summary.published += 1
                    summary.firstSequence = summary.firstSequence ?? receipt.sequence
                    summary.lastSequence = receipt.sequence
                }
            }
            if let data {
                // The batch call, not `publish(_:to:)`: [UInt8] is also Encodable, and the typed overload would
                // JSON-encode the bytes as an array.
                take(try await connection.publish(batch: [Array(data.utf8)], to: stream))
            } else {
                let budget = Int(connection.maximumFrameLength) / 2
                for try await batch in LineBatches(FileHandle.standardInput, count: batchSize, bytes: budget) {
                    take(try await connection.publish(batch: batch, to: stream))
                }
            }
            if options.json { return try Output.json(summary) }
            if let first = summary.firstSequence, let last = summary.lastSequence {
                var line = "published \(Formatting.count(summary.published, "event")) to \(stream) (\(Formatting.sequences(first, last)))"
                if summary.duplicates > 0 { line += "; \(Formatting.count(summary.duplicates, "duplicate")) not stored again" }
                try Output.line(line)
            } else {
                try Output.line("published nothing to \(stream) (standard input was empty)")
            }
        }
    }
}
