import ArgumentParser
import Foundation

/// What streamctl writes on standard error when a command fails: `streamctl: SENTENCE`, or with `--json`
/// one JSON document (`{"error": {"code", "message", "exit_status", "suggestions"}}`, `$defs/error` of
/// schemas/streamctl.schema.json) and a newline. The exit status is the same either way.
///
/// A plain value.
struct FailureReport: Encodable {
    /// The `error` object.
    struct Failure: Encodable {
        /// `usage` for bad usage (exit 64); otherwise `CtlFailure.code`.
        var code: String
        /// The sentence a person reads: what failed and what to do.
        var message: String
        /// The exit status streamctl ends with (64 or 1).
        var exitStatus: Int32
        /// Close names the user may have meant (verbs or streams); absent when none.
        var suggestions: [String]?
    }

    var error: Failure

    init(code: String, message: String, exitStatus: Int32, suggestions: [String] = []) {
        error = Failure(code: code, message: message, exitStatus: exitStatus, suggestions: suggestions.isEmpty ? nil : suggestions)
    }

    /// Whether the command line asks for JSON: `--json` anywhere before a `--` (before or after the verb).
    /// Read from the words themselves, so even a command line the parser refuses gets a JSON error.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    /// Writes the report to standard error: the JSON document when `json`, else `streamctl: MESSAGE`.
    func write(json: Bool) {
        guard json, let document = try? Output.encode(self) else { return Output.error("streamctl: \(error.message)") }
        try? Output.write(Array(document) + [0x0A], to: STDERR_FILENO)
    }
}
