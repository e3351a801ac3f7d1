import ArgumentParser
import StreamProtocol

/// Which events of a stream `tail`, `replay` and `export` take, by sequence (`--from-seq`, `--to-seq`) or
/// count (`--last`, `-n`). A plain value.
struct RangeOptions: ParsableArguments {
    @Option(name: .customLong("from-seq"), help: ArgumentHelp("Start at sequence S (inclusive).", valueName: "S"))
    var fromSequence: UInt64?

    @Option(name: .customLong("to-seq"), help: ArgumentHelp("End at sequence E (inclusive).", valueName: "E"))
    var toSequence: UInt64?

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("Only the last N events (tail's default: 10).", valueName: "N"))
    var last: UInt64?

    func validate() throws {
        if fromSequence != nil, last != nil { throw ValidationError("--from-seq and --last exclude each other.") }
        if let fromSequence, let toSequence, toSequence < fromSequence {
            throw ValidationError("--to-seq \(toSequence) is before --from-seq \(fromSequence).")
        }
        if last == 0 { throw ValidationError("--last must be at least 1.") }
    }

    /// Where reading starts.
    var start: StartPosition {
        if let fromSequence { return .from(sequence: fromSequence) }
        if let last { return .last(last) }
        return .all
    }

    /// How many of the stream's retained events (`info`, whose sequences run without a gap) fall in the range.
    func count(in info: StreamInfo) -> UInt64 {
        guard info.count > 0 else { return 0 }
        var lower = max(info.firstSequence, fromSequence ?? info.firstSequence)
        if let last, last <= info.lastSequence { lower = max(lower, info.lastSequence - last + 1) }
        let upper = min(info.lastSequence, toSequence ?? info.lastSequence)
        return upper >= lower ? min(upper - lower + 1, info.count) : 0
    }

    /// Whether an event of this sequence is past the range (reading can stop).
    func isPastEnd(_ sequence: UInt64) -> Bool { toSequence.map { sequence > $0 } ?? false }
}
