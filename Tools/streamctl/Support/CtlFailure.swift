/// A failure streamctl reports on standard error before exiting with status 1 (as a sentence, or with
/// `--json` as the `error` document of the schema).
///
/// Values are Sendable.
struct CtlFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    let description: String
    /// The kind of failure for scripts: the daemon's error code (`stream_not_found`, …) or one of
    /// streamctl's own (`daemon_unreachable`, `connection_lost`, `interrupted`, `aborted`, …); see the
    /// schema's `$defs/error`.
    var code: String
    /// Close names the user may have meant (stream names), the closest first; empty when none is close.
    var suggestions: [String]

    init(_ description: String, code: String = "failure", suggestions: [String] = []) {
        self.description = description
        self.code = code
        self.suggestions = suggestions
    }
}
