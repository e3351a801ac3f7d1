import ArgumentParser
import Foundation
import StreamClient
import StreamProtocol

/// `streamctl import STREAM`: publish the events of an NDJSON export.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Publish the events of an NDJSON export (from standard input or --input) into a stream, in batches.",
        discussion: """
            Each line is a JSON object with "payload" (text) and optionally "encoding" ("utf8" or "base64"); \
            its sequence and timestamp are not kept: the stream gives new ones. Empty lines are skipped. A \
            line that is not an event stops the import (the batches before it stay published). A progress \
            bar is drawn on standard error when it is a terminal.

            If the connection to streamd is lost, the message names the last acknowledged sequence and \
            line and the command that resumes: --skip-lines N --after-sequence S leaves out the lines already \
            stored, and those of the batch that was in flight if the daemon had stored it (checked against \
            the stream's events after S), so every line ends up stored exactly once.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream (created if missing).", completion: StreamNameCompletion.kind)
    var stream: String

    @Option(name: [.short, .long], help: ArgumentHelp("The file to read.", valueName: "file"))
    var input: String?

    @Option(name: .customLong("skip-lines"), help: ArgumentHelp(
        "Resuming: leave out the first N lines of the input (the interrupted import's message gives N).", valueName: "N"))
    var skipLines: Int = 0

    @Option(name: .customLong("after-sequence"), help: ArgumentHelp(
        "Resuming: the last sequence the interrupted import acknowledged. Events the stream holds after it are the batch that was in flight: the lines after --skip-lines must be those events (else the import stops, naming the line) and are left out; each batch then expects the stream's last sequence, so another publisher's event makes the import stop rather than guess.",
        valueName: "S"))
    var afterSequence: UInt64?

    struct Summary: Encodable {
        var stream: String
        var events: UInt64
        var input: String
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        /// Lines left out because --skip-lines or --after-sequence said they were stored before.
        var skippedLines: Int?
        /// Where the import stood when the connection was lost.
        var interrupted: Interruption?
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        guard skipLines >= 0 else { throw ValidationError("--skip-lines must be 0 or more.") }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let (handle, total) = try openInput()
            let progress = Progress("importing into \(stream)", total: total, unit: .bytes)
            var summary = Summary(stream: stream, events: 0, input: input ?? "-")
            let startSequence = try await lastSequence(connection)
            var expected: UInt64? = nil
            // The payloads the stream holds after --after-sequence: the batch in flight, if it was stored.
            var storedAfter: [[UInt8]] = []
            var matched = 0
            if let afterSequence {
                guard startSequence >= afterSequence else {
                    throw CtlFailure("""
                        \(stream) ends at sequence \(startSequence), before --after-sequence \(afterSequence): events the interrupted \
                        import had stored are gone (truncated or deleted), so where to resume is unknown; check with \
                        `streamctl info \(stream)`, or import the whole file again into a new stream.
                        """)
                }
                storedAfter = try await events(after: afterSequence, through: startSequence, connection)
                expected = startSequence
            }
            var lineNumber = 0
            var lastAcknowledgedLine = 0
            var skipped = 0
            let frameLength = Int(connection.maximumFrameLength)
            // A line may be as long as export writes for the largest event the daemon takes; a batch
            // carries at most a quarter of a frame of lines, and no more entries than a reply can list.
            let lines = LineBatches(
                handle, count: min(1000, FrameBounds.maximumBatchEntries(frameLength: frameLength)), bytes: frameLength / 4,
                longestLine: EventRecord.longestLine(payloadBytes: FrameBounds.maximumPayload(frameLength: frameLength))
            ) { progress.update($0) }
            do {
                for try await batch in lines {
                    var payloads: [[UInt8]] = []
                    for line in batch {
                        lineNumber += 1
                        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                        if lineNumber <= skipLines {
                            skipped += 1
                            lastAcknowledgedLine = lineNumber  // stored before: as good as acknowledged
                            continue
                        }
                        let payload: [UInt8]
                        do {
                            payload = try EventRecord.parse(line[...]).bytes()
                        } catch {
                            throw CtlFailure("line \(lineNumber) of \(inputName): \(error); \(summary.events) events before it were imported.")
                        }
                        if matched < storedAfter.count, let afterSequence {
                            // Stored by the batch in flight when the import was cut off: the same bytes, or
                            // someone else's event, which makes the resume point unknown.
                            guard payload == storedAfter[matched] else {
                                throw CtlFailure("""
                                    line \(lineNumber) of \(inputName) is not the event \(stream) holds at sequence \
                                    \(afterSequence + UInt64(matched) + 1): something else published to \(stream) after the interrupted \
                                    import, so where to resume is unknown; nothing was imported. Compare the stream with the input \
                                    (`streamctl tail \(stream) --from-seq \(afterSequence + 1)`) and resume with the right --skip-lines \
                                    and --after-sequence.
                                    """)
                            }
                            matched += 1
                            skipped += 1
                            lastAcknowledgedLine = lineNumber
                            continue
                        }
                        payloads.append(payload)
                    }
                    guard !payloads.isEmpty else {
                        lastAcknowledgedLine = lineNumber
                        continue
                    }
                    let receipts: [AppendReceipt]
                    do {
                        receipts = try await connection.append(contentsOf: payloads, to: stream, expectedLastSequence: expected)
                    } catch let error as StreamClientError where error.isConnectionLoss {
                        let interruption = Interruption(
                            reason: error.description, acknowledgedEvents: summary.events, lastAcknowledgedSequence: summary.lastSequence,
                            startSequence: startSequence, lastAcknowledgedLine: lastAcknowledgedLine,
                            inFlightFirstLine: lastAcknowledgedLine + 1, inFlightLastLine: lineNumber, resumeCommand: nil)
                        summary.interrupted = withResumeCommand(interruption)
                        throw summary.interrupted!
                    } catch let StreamClientError.requestTooLarge(length, maximum) where payloads.count == 1 {
                        throw CtlFailure("""
                            line \(lineNumber) of \(inputName) holds an event of \(payloads[0].count) bytes, which makes a frame of \
                            \(length) bytes, more than the \(maximum) bytes streamd takes; \(summary.events) events before it were imported.
                            """)
                    }
                    summary.events += UInt64(receipts.count)
                    summary.firstSequence = summary.firstSequence ?? receipts.first?.sequence
                    summary.lastSequence = receipts.last?.sequence ?? summary.lastSequence
                    if expected != nil { expected = receipts.last?.sequence ?? expected }
                    lastAcknowledgedLine = lineNumber
                }
            } catch let error as LineBatches.LineTooLong {
                throw CtlFailure("""
                    line \(error.line) of \(inputName) is at least \(error.bytes) bytes long, more than the \(error.limit) bytes of the \
                    longest line `streamctl export` writes (for the largest event this daemon takes, \
                    \(FrameBounds.maximumPayload(frameLength: frameLength)) bytes, all escaped), so it is not an exported event; the lines \
                    before it were imported (\(Formatting.count(summary.events, "event"))). Split the line, or go on after it with \
                    `--skip-lines \(error.line)`.
                    """)
            } catch let interruption as Interruption {
                progress.finish()
                if options.json { try Output.json(summary) }
                throw CtlFailure(interruption.sentence(verb: "importing into", stream: stream, input: inputName))
            }
            progress.finish()
            if skipped > 0 { summary.skippedLines = skipped }
            if options.json { return try Output.json(summary) }
            if let first = summary.firstSequence, let last = summary.lastSequence {
                try Output.line("imported \(Formatting.count(summary.events, "event")) into \(stream) (\(Formatting.sequences(first, last)))")
            } else {
                try Output.line("imported nothing: \(inputName) holds no \(skipped > 0 ? "more " : "")events")
            }
        }
    }

    /// The payloads of the events of the stream after `sequence` through `last`, at most one batch's worth.
    private func events(after sequence: UInt64, through last: UInt64, _ connection: StreamConnection) async throws -> [[UInt8]] {
        guard last > sequence else { return [] }
        guard last - sequence <= 100_000 else {
            throw CtlFailure("""
                \(stream) holds \(last - sequence) events after --after-sequence \(sequence), more than one batch of an import \
                stores: something else published to it, so where to resume is unknown; check with `streamctl info \(stream)`.
                """)
        }
        var payloads: [[UInt8]] = []
        for try await event in connection.history(of: stream, from: .from(sequence: sequence + 1)) {
            if event.sequence > last { break }
            payloads.append(event.payload)
        }
        return payloads
    }

    /// How messages name the input.
    private var inputName: String { input ?? "standard input" }

    /// The input and its size, when it is a file.
    private func openInput() throws -> (FileHandle, UInt64?) {
        guard let input else { return (FileHandle.standardInput, nil) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CtlFailure("\(input) is a directory, not an NDJSON file; give --input the file `streamctl export` wrote.")
        }
        guard let file = FileHandle(forReadingAtPath: input) else { throw CtlFailure("cannot read \(input): no such file or no permission") }
        return (file, (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.uint64Value)
    }

    /// The stream's last sequence (0 when it is empty or does not exist yet).
    private func lastSequence(_ connection: StreamConnection) async throws -> UInt64 {
        do {
            return try await connection.streamInfo(stream).lastSequence
        } catch let StreamClientError.server(code, _) where code == .streamNotFound {
            return 0
        }
    }

    /// `interruption` with the command that resumes it, which needs the input again: a file names
    /// itself; standard input must be fed again.
    private func withResumeCommand(_ interruption: Interruption) -> Interruption {
        var resumed = interruption
        var words = ["streamctl", "import", stream]
        if let input { words += ["--input", input] }
        if let socket = options.socket { words += ["--socket", socket] }
        words += ["--skip-lines", "\(interruption.lastAcknowledgedLine)", "--after-sequence", "\(interruption.resumeSequence)"]
        resumed.resumeCommand = (input == nil ? "(the same standard input) | " : "") + Shell.command(words)
        return resumed
    }
}
