import ArgumentParser
import Logging
import StreamServer

/// How streamd writes its log on standard error: `text` (swift-log's `StreamLogHandler`, one line
/// per entry for a person) or `json` (one JSON object per line, see `JSONLogHandler`).
///
/// Values are Sendable.
enum LogFormat: String, Sendable, CaseIterable {
    case text
    case json

    /// The format named by `--log-format`, else by `STREAMD_LOG_FORMAT`, else text.
    ///
    /// - Throws: `ValidationError` (exit 64) for any other name.
    static func parse(_ flag: String?, environment: [String: String]) throws -> LogFormat {
        let name = flag ?? environment["STREAMD_LOG_FORMAT"] ?? "text"
        guard let format = LogFormat(rawValue: name.lowercased()) else {
            let source = flag == nil ? "STREAMD_LOG_FORMAT" : "--log-format"
            throw ValidationError("\(source) must be text or json (got \"\(name)\"); text is for reading, json writes one JSON object per line for journald or Loki.")
        }
        return format
    }

    /// Makes every logger of the process write in this format at `level`; call once, before logging.
    func bootstrap(level: Logger.Level) {
        switch self {
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}
