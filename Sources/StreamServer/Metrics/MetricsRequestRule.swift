/// What the metrics endpoint answers to a request: the rules alone, without NIO, so they are tested
/// as plain values.
///
/// Only `GET /metrics` (a query string is ignored) gets the exposition; another path gets 404, another
/// method on `/metrics` 405, and a request past `maximumRequestBytes` 431. Every answer closes the
/// connection.
///
/// Values are immutable and Sendable.
enum MetricsRequestRule {
    /// The most bytes a request may send (its head; a GET carries no body).
    static let maximumRequestBytes = 8 * 1024

    /// The kinds of answer.
    enum Answer: Equatable, Sendable {
        case metrics
        case notFound
        case methodNotAllowed
        case tooLarge

        /// The status line's code and reason.
        var status: (code: Int, reason: String) {
            switch self {
            case .metrics: (200, "OK")
            case .notFound: (404, "Not Found")
            case .methodNotAllowed: (405, "Method Not Allowed")
            case .tooLarge: (431, "Request Header Fields Too Large")
            }
        }

        /// The plain-text body of a refusal (a sentence saying what is served).
        var refusalBody: String {
            switch self {
            case .metrics: ""
            case .notFound: "Not found: streamd serves only GET /metrics here.\n"
            case .methodNotAllowed: "Method not allowed: /metrics answers GET only.\n"
            case .tooLarge: "Request too large: a metrics request has at most \(MetricsRequestRule.maximumRequestBytes) bytes.\n"
            }
        }
    }

    /// The answer to a request with `method` for `uri`.
    static func answer(method: String, uri: String) -> Answer {
        let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path == "/metrics" else { return .notFound }
        return method == "GET" ? .metrics : .methodNotAllowed
    }
}
