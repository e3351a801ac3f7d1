import ArgumentParser
import Foundation
import StreamClient

/// `streamctl export STREAM`: a stream's events as NDJSON, for `import`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a stream's events as NDJSON (one object per line: sequence, timestamp, payload) to standard output or --output.",
        discussion: "A progress bar is drawn on standard error when it is a terminal. With --json (which needs --output), a summary is printed.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }
    @OptionGroup var range: RangeOptions

    @Argument(help: "The stream.", completion: StreamNameCompletion.kind)
    var stream: String

    @Option(name: [.short, .long], help: ArgumentHelp("The file to write (replaced if it exists).", valueName: "file"))
    var output: String?

    struct Summary: Encodable {
        var stream: String
        var events: UInt64
        var output: String
        var firstSequence: UInt64?
        var lastSequence: UInt64?
    }

    func validate() throws {
        try Daemon.validate(name: stream)
        if options.json, output == nil { throw ValidationError("--json prints a summary on standard output, so the events need --output FILE.") }
    }

    func run() async throws {
        try await Daemon.run(options) { connection in
            let info = try await connection.streamInfo(stream)
            var descriptor = STDOUT_FILENO
            if let output {
                descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw CtlFailure("cannot write \(output): \(String(cString: strerror(errno)))") }
            }
            defer { if output != nil { close(descriptor) } }
            let buffer = OutputBuffer(descriptor: descriptor)
            let progress = Progress("exporting \(stream)", total: range.count(in: info))
            var summary = Summary(stream: stream, events: 0, output: output ?? "-")
            for try await event in connection.history(of: stream, from: range.start) {
                if range.isPastEnd(event.sequence) { break }
                try buffer.append(EventRecord(event).line())
                summary.events += 1
                summary.firstSequence = summary.firstSequence ?? event.sequence
                summary.lastSequence = event.sequence
                progress.update(summary.events)
            }
            try buffer.flush()
            progress.finish(summary.events)
            guard let output else { return }
            try options.json
                ? Output.json(summary)
                : Output.line("exported \(summary.events) event\(summary.events == 1 ? "" : "s") of \(stream) to \(output)")
        }
    }
}
