import ArgumentParser
import StreamClient

/// `streamctl replay STREAM --to OTHER`: publish a range of one stream's events into another.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Publish a range of a stream's events into another stream, at once or at their original pace.",
        discussion: "The copies get new sequences and timestamps in the target stream (created if missing).")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }
    @OptionGroup var range: RangeOptions

    @Argument(help: "The stream to read.", completion: StreamNameCompletion.kind)
    var stream: String

    @Option(name: .long, help: ArgumentHelp("The stream to publish into.", valueName: "other"))
    var to: String

    @Option(name: .long, help: ArgumentHelp("original: wait between events as long as they were apart when published.", valueName: "original"))
    var pace: String?

    @Option(name: .long, help: ArgumentHelp("Like --pace original, but F times faster (2 = twice as fast).", valueName: "F"))
    var speed: Double?

    struct Summary: Encodable {
        var source: String
        var target: String
        var events: UInt64
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        var targetFirstSequence: UInt64?
        var targetLastSequence: UInt64?
    }

    /// The speeds --speed accepts: beyond them a wait is either never-ending or no wait at all.
    static let speeds = 0.001...1_000_000.0

    /// The longest wait between two events, whatever their distance and the speed: a year, far below where
    /// a `Duration` overflows.
    static let longestWait = 365.0 * 24 * 3600 * 1_000_000

    func validate() throws {
        try Daemon.validate(name: stream)
        try Daemon.validate(name: to, "--to")
        guard to != stream else { throw ValidationError("--to must name another stream than \(stream).") }
        if let pace, pace != "original" { throw ValidationError("--pace takes only \"original\" (or use --speed F).") }
        if pace != nil, speed != nil { throw ValidationError("--pace and --speed exclude each other.") }
        if let speed, !Self.speeds.contains(speed) {
            throw ValidationError("--speed must be between \(Self.speeds.lowerBound) and \(Int(Self.speeds.upperBound)) (2 = twice as fast, 0.5 = half as fast); got \(speed).")
        }
    }

    func run() async throws {
        let factor = speed ?? (pace == nil ? nil : 1)
        try await Daemon.run(options) { connection in
            var summary = Summary(source: stream, target: to, events: 0)
            var batch: [[UInt8]] = []
            var previous: Int64?
            func publish() async throws {
                guard !batch.isEmpty else { return }
                let receipts = try await connection.append(contentsOf: batch, to: to)
                summary.targetFirstSequence = summary.targetFirstSequence ?? receipts.first?.sequence
                summary.targetLastSequence = receipts.last?.sequence ?? summary.targetLastSequence
                batch.removeAll(keepingCapacity: true)
            }
            for try await event in connection.history(of: stream, from: range.start) {
                if range.isPastEnd(event.sequence) { break }
                if let factor {
                    if let previous, event.timestamp > previous {
                        let wait = min(Double(event.timestamp - previous) / factor, Self.longestWait)
                        try await Task.sleep(for: .microseconds(wait))
                    }
                    previous = event.timestamp
                }
                batch.append(event.payload)
                summary.events += 1
                summary.firstSequence = summary.firstSequence ?? event.sequence
                summary.lastSequence = event.sequence
                if factor != nil || batch.count >= 1000 { try await publish() }
            }
            try await publish()
            if options.json { return try Output.json(summary) }
            if let first = summary.firstSequence, let last = summary.lastSequence,
                let targetFirst = summary.targetFirstSequence, let targetLast = summary.targetLastSequence
            {
                try Output.line("replayed \(Formatting.count(summary.events, "event")) of \(stream) (\(Formatting.sequences(first, last))) into \(to) (\(Formatting.sequences(targetFirst, targetLast)))")
            } else {
                try Output.line("replayed nothing: \(stream) has no events in that range")
            }
        }
    }
}
