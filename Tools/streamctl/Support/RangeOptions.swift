import ArgumentParser
import StreamProtocol

/// Which events of a stream `replay` and `export` take.
struct RangeOptions: ParsableArguments {
    @Option(name: .customLong("from-seq"), help: ArgumentHelp("Start at sequence S (inclusive).", valueName: "S"))
    var fromSequence: UInt64?

    @Option(name: .customLong("to-seq"), help: ArgumentHelp("End at sequence E (inclusive).", valueName: "E"))
    var toSequence: UInt64?

    @Option(name: .long, help: ArgumentHelp("Only the last N events.", valueName: "N"))
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
        if let fromSequence { return .fromSequence(fromSequence) }
        if let last { return .last(last) }
        return .all
    }

    /// Whether an event of this sequence is past the range (reading can stop).
    func isPastEnd(_ sequence: UInt64) -> Bool { toSequence.map { sequence > $0 } ?? false }
}
