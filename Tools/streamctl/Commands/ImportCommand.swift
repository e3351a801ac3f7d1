import ArgumentParser
import Foundation
import StreamClient

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
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "The stream (created if missing).")
    var stream: String

    @Option(name: [.short, .long], help: ArgumentHelp("The file to read.", valueName: "file"))
    var input: String?

    struct Summary: Encodable {
        var stream: String
        var events: UInt64
        var input: String
        var firstSequence: UInt64?
        var lastSequence: UInt64?
    }

    func validate() throws { try Daemon.validate(name: stream) }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let handle: FileHandle
            var total: UInt64?
            if let input {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue {
                    throw CtlFailure("\(input) is a directory, not an NDJSON file; give --input the file `streamctl export` wrote.")
                }
                guard let file = FileHandle(forReadingAtPath: input) else { throw CtlFailure("cannot read \(input): no such file or no permission") }
                handle = file
                total = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.uint64Value
            } else {
                handle = FileHandle.standardInput
            }
            let progress = Progress("importing into \(stream)", total: total, unit: .bytes)
            var summary = Summary(stream: stream, events: 0, input: input ?? "-")
            var lineNumber = 0
            let lines = LineBatches(handle, count: 1000, bytes: Int(connection.maximumFrameLength) / 4) { progress.update($0) }
            for try await batch in lines {
                var payloads: [[UInt8]] = []
                for line in batch {
                    lineNumber += 1
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                    do {
                        payloads.append(try EventRecord.parse(line[...]).bytes())
                    } catch {
                        throw CtlFailure("line \(lineNumber) of \(input ?? "standard input"): \(error); \(summary.events) events before it were imported.")
                    }
                }
                guard !payloads.isEmpty else { continue }
                let receipts = try await connection.publish(batch: payloads, to: stream)
                summary.events += UInt64(receipts.count)
                summary.firstSequence = summary.firstSequence ?? receipts.first?.sequence
                summary.lastSequence = receipts.last?.sequence ?? summary.lastSequence
            }
            progress.finish()
            if options.json { return try Output.json(summary) }
            if let first = summary.firstSequence, let last = summary.lastSequence {
                try Output.line("imported \(Formatting.count(summary.events, "event")) into \(stream) (\(Formatting.sequences(first, last)))")
            } else {
                try Output.line("imported nothing: \(input ?? "standard input") holds no events")
            }
        }
    }
}
