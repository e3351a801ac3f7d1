import Foundation

/// Where a `publish` or `import` stood when the connection to the daemon was lost: what the daemon had
/// acknowledged, which lines were in flight, and the command that resumes. Printed as a sentence on
/// standard error and, with `--json`, as the summary's `interrupted` object.
///
/// A plain value.
struct Interruption: Error, Encodable, Sendable, CustomStringConvertible {
    /// Why the connection ended, in the client library's words.
    var reason: String
    /// The events the daemon acknowledged before the connection ended.
    var acknowledgedEvents: UInt64
    /// The sequence of the last event acknowledged; absent when none was.
    var lastAcknowledgedSequence: UInt64?
    /// The stream's last sequence when the command started (0 = empty or missing): what
    /// `--after-sequence` takes when nothing was acknowledged.
    var startSequence: UInt64
    /// The last input line whose batch was acknowledged (0 = none): every line up to it is stored.
    var lastAcknowledgedLine: Int
    /// The lines of the batch in flight, which the daemon may or may not have stored.
    var inFlightFirstLine: Int?
    var inFlightLastLine: Int?
    /// The command that finishes the job, each line stored once; absent when the input cannot be read again.
    var resumeCommand: String?

    /// The sequence a resumed import continues after.
    var resumeSequence: UInt64 { lastAcknowledgedSequence ?? startSequence }

    var description: String { sentence(verb: "publishing to", stream: "the stream", input: "the input") }

    /// The sentence for standard error, naming the stream and the input.
    func sentence(verb: String, stream: String, input: String) -> String {
        var text = "the connection to streamd was lost while \(verb) \(stream) (\(reason)). "
        if let last = lastAcknowledgedSequence {
            text += "The daemon had acknowledged \(acknowledgedEvents) event\(acknowledgedEvents == 1 ? "" : "s"), "
                + "the last with sequence \(last), from lines up to \(lastAcknowledgedLine) of \(input). "
        } else {
            text += "The daemon had acknowledged no event of \(input). "
        }
        if let first = inFlightFirstLine, let last = inFlightLastLine {
            text += "The batch in flight (\(first == last ? "line \(first)" : "lines \(first)...\(last)")) may or may not have been stored. "
        }
        if let resumeCommand {
            text += "Once streamd is back, resume with: \(resumeCommand)"
        } else {
            text += "Lines after \(lastAcknowledgedLine) were not acknowledged; check the stream with `streamctl info \(stream)` before sending them again."
        }
        return text
    }
}

/// Words for a shell command line.
///
/// Stateless.
enum Shell {
    /// `word` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func quote(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `words` as one command line.
    static func command(_ words: [String]) -> String {
        words.map(quote).joined(separator: " ")
    }
}
