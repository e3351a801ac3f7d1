import ArgumentParser
import Foundation
import StreamClient

/// `streamctl publish STREAM [DATA]`: one event from the argument, or one per line of standard input.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish one event (DATA), or one event per line of standard input, in batches.",
        discussion: """
            A stream that does not exist is created with the default policy (unlimited). Each batch is one \
            durable commit; lines are sent as soon as standard input pauses, so `tail -F app.log | streamctl \
            publish logs` publishes each line promptly. Empty lines are skipped (as `import` does). A line \
            longer than one frame of the daemon can carry stops the publish, naming the line.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Argument(help: "The event's payload; without it, each line of standard input is one event.")
    var data: String?

    @Option(name: .customLong("message-id"), help: ArgumentHelp(
        "De-duplication: a message id the stream has seen recently is not stored again (reported as a duplicate). Only with DATA.",
        valueName: "id"))
    var messageID: String?

    @Option(name: .customLong("expect-last-seq"), help: ArgumentHelp(
        "Optimistic concurrency: publish only if the stream's last sequence is N (0 = empty); otherwise fail with exit 1.",
        valueName: "N"))
    var expectedLastSequence: UInt64?

    @Option(name: .customLong("batch-size"), help: ArgumentHelp("Events per batch when reading standard input.", valueName: "N"))
    var batchSize: Int = 1000

    struct Summary: Encodable {
        var stream: String
        var published: UInt64
        var duplicates: UInt64
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        var messageId: String?
        /// For a duplicate `--message-id`: the sequence of the event stored with that id before.
        var duplicateOf: UInt64?
        /// Where the publish stood when the connection was lost.
        var interrupted: Interruption?
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        guard (1...100_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1...100000.") }
        if messageID != nil, data == nil {
            throw ValidationError("--message-id names one event: give its payload as DATA (standard input may hold many).")
        }
        if let messageID, messageID.isEmpty { throw ValidationError("--message-id must not be empty.") }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            var summary = Summary(stream: stream, published: 0, duplicates: 0, messageId: messageID)
            func take(_ receipts: [AppendReceipt]) {
                for receipt in receipts {
                    if receipt.duplicate {
                        summary.duplicates += 1
                        summary.duplicateOf = receipt.sequence
                        continue
                    }
                    summary.published += 1
                    summary.firstSequence = summary.firstSequence ?? receipt.sequence
                    summary.lastSequence = receipt.sequence
                }
            }
            var linesRead = 0
            if let data {
                take([try await connection.append(
                    Array(data.utf8), to: stream, expectedLastSequence: expectedLastSequence, messageID: messageID)])
            } else {
                do {
                    linesRead = try await publishLines(connection) { take($0) }
                } catch let interruption as Interruption {
                    summary.interrupted = interruption
                    if options.json { try Output.json(summary) }
                    throw CtlFailure(interruption.sentence(verb: "publishing to", stream: stream, input: "standard input"))
                }
            }
            try report(summary, linesRead: linesRead)
        }
    }

    /// Publishes standard input's non-empty lines in batches; with --expect-last-seq, each batch expects
    /// the last sequence of the one before, so no other publisher's event lands in between.
    /// Returns the number of lines read.
    private func publishLines(_ connection: StreamConnection, _ take: ([AppendReceipt]) -> Void) async throws -> Int {
        // The frame's fixed part: header, stream name, expected sequence and count, with room to spare.
        let budget = Int(connection.maximumFrameLength) - 64 - stream.utf8.count
        var expected = expectedLastSequence
        var linesRead = 0
        var acknowledged: (events: UInt64, sequence: UInt64?) = (0, nil)
        do {
            for try await batch in LineBatches(FileHandle.standardInput, count: batchSize, bytes: budget) {
                let first = linesRead + 1
                linesRead += batch.count
                let payloads = batch.filter { !$0.isEmpty }
                guard !payloads.isEmpty else { continue }
                let receipts: [AppendReceipt]
                do {
                    receipts = try await connection.append(contentsOf: payloads, to: stream, expectedLastSequence: expected)
                } catch let error as StreamClientError where error.isConnectionLoss {
                    throw Interruption(
                        reason: error.description, acknowledgedEvents: acknowledged.events, lastAcknowledgedSequence: acknowledged.sequence,
                        startSequence: 0, lastAcknowledgedLine: first - 1, inFlightFirstLine: first, inFlightLastLine: linesRead)
                } catch let StreamClientError.server(code, text) where code != .wrongLastSequence {
                    let lines = first == linesRead ? "line \(first)" : "lines \(first)...\(linesRead)"
                    throw CtlFailure("\(lines) of standard input: \(Daemon.message(for: StreamClientError.server(code: code, message: text), socket: connection.socketPath))")
                }
                take(receipts)
                acknowledged.events += UInt64(receipts.count)
                acknowledged.sequence = receipts.last?.sequence ?? acknowledged.sequence
                if expected != nil { expected = receipts.last?.sequence ?? expected }
            }
        } catch let error as LineBatches.LineTooLong {
            throw CtlFailure("""
                line \(error.line) of standard input is \(error.bytes) bytes, more than the \(error.limit) bytes one event can have \
                (the daemon takes frames of at most \(connection.maximumFrameLength) bytes); nothing from that line on was published.
                """)
        }
        return linesRead
    }

    private func report(_ summary: Summary, linesRead: Int) throws {
        if options.json { return try Output.json(summary) }
        if let messageID, let original = summary.duplicateOf {
            return try Output.line("duplicate: \(stream) already holds message id \(messageID) (sequence \(original)); not stored again")
        }
        if let first = summary.firstSequence, let last = summary.lastSequence {
            var line = "published \(Formatting.count(summary.published, "event")) to \(stream) (\(Formatting.sequences(first, last)))"
            if summary.duplicates > 0 { line += "; \(Formatting.count(summary.duplicates, "duplicate")) not stored again" }
            try Output.line(line)
        } else {
            try Output.line("published nothing to \(stream) (standard input \(linesRead == 0 ? "was empty" : "held only empty lines"))")
        }
    }
}
