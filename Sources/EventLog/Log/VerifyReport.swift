/// What `EventLog.verify()` found: one entry per problem, each naming the stream and sequences.
///
/// Values are immutable and Sendable.
public struct VerifyReport: Sendable, CustomStringConvertible {
    /// One problem found by verify.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The stream concerned (nil for database-wide problems).
        public let stream: String?
        /// The sequence range concerned, when the problem has one.
        public let sequences: ClosedRange<UInt64>?
        /// What is wrong.
        public let message: String

        package init(stream: String?, sequences: ClosedRange<UInt64>?, message: String) {
            self.stream = stream
            self.sequences = sequences
            self.message = message
        }

        /// The value as a log line or error report shows it.
        public var description: String {
            var text = ""
            if let stream { text += "stream \(stream)" }
            if let sequences { text += (text.isEmpty ? "" : " ") + "sequences \(sequences.lowerBound)...\(sequences.upperBound)" }
            return (text.isEmpty ? "" : text + ": ") + message
        }
    }

    /// Every problem found, in stream and sequence order.
    public let problems: [Problem]
    /// Streams checked.
    public let streamCount: Int
    /// Blocks checked.
    public let blockCount: Int
    /// Events decoded.
    public let eventCount: UInt64

    package init(problems: [Problem], streamCount: Int, blockCount: Int, eventCount: UInt64) {
        self.problems = problems
        self.streamCount = streamCount
        self.blockCount = blockCount
        self.eventCount = eventCount
    }

    /// True when nothing is wrong.
    public var isClean: Bool { problems.isEmpty }

    /// The value as a log line or error report shows it.
    public var description: String {
        let head = "verify: \(streamCount) streams, \(blockCount) blocks, \(eventCount) events, \(problems.count) problems"
        return ([head] + problems.map { "  - \($0)" }).joined(separator: "\n")
    }
}
