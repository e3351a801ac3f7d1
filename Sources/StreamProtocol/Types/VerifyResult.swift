/// What the daemon's integrity check of its log found, answering `VERIFY`.
///
/// Values are Sendable.
public struct VerifyResult: Sendable, Hashable {
    /// One problem: where it is and what is wrong.
    public struct Problem: Sendable, Hashable {
        /// The stream concerned; nil for a problem of the whole database.
        public var stream: String?
        /// The sequences concerned, when the problem has a range.
        public var sequences: ClosedRange<UInt64>?
        /// What is wrong.
        public var message: String

        /// A problem with these fields.
        public init(stream: String?, sequences: ClosedRange<UInt64>?, message: String) {
            self.stream = stream
            self.sequences = sequences
            self.message = message
        }
    }

    /// Streams checked.
    public var streams: UInt32
    /// Blocks checked.
    public var blocks: UInt64
    /// Events decoded.
    public var events: UInt64
    /// Every problem found, in stream and sequence order; empty when the log is sound.
    public var problems: [Problem]

    /// A result with these figures.
    public init(streams: UInt32, blocks: UInt64, events: UInt64, problems: [Problem]) {
        self.streams = streams
        self.blocks = blocks
        self.events = events
        self.problems = problems
    }
}

extension VerifyResult {
    func write(to writer: inout WireWriter) throws {
        writer.write(streams)
        writer.write(blocks)
        writer.write(events)
        writer.write(UInt32(problems.count))
        for problem in problems {
            try writer.writeOptional(problem.stream) { try $0.write($1, field: "problem.stream") }
            writer.writeOptional(problem.sequences) { writer, range in
                writer.write(range.lowerBound)
                writer.write(range.upperBound)
            }
            // A problem's text is never worth failing the reply over: cut it to fit its field.
            try writer.write(String(decoding: problem.message.utf8.prefix(65_000), as: UTF8.self), field: "problem.message")
        }
    }

    init(from reader: inout WireReader) throws {
        streams = try reader.read(UInt32.self, "verify.streams")
        blocks = try reader.read(UInt64.self, "verify.blocks")
        events = try reader.read(UInt64.self, "verify.events")
        let count = try reader.read(UInt32.self, "verify.count")
        problems = []
        for _ in 0..<count {
            let stream = try reader.readOptional("problem.stream") { try $0.read(String.self, "problem.stream") }
            let sequences = try reader.readOptional("problem.sequences") { reader -> ClosedRange<UInt64> in
                let first = try reader.read(UInt64.self, "problem.first_sequence")
                let last = try reader.read(UInt64.self, "problem.last_sequence")
                guard first <= last else {
                    throw ProtocolError.malformed("problem.first_sequence \(first) is after problem.last_sequence \(last)")
                }
                return first...last
            }
            problems.append(Problem(stream: stream, sequences: sequences, message: try reader.read(String.self, "problem.message")))
        }
    }
}
