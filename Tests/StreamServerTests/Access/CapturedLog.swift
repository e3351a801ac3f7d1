import Logging
import Synchronization

/// A `Logger` whose lines are kept in memory, each as `level message key=value ...` (metadata sorted).
///
/// Thread-safety: Sendable; the lines sit behind a `Mutex`.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here, at every level.
    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The lines so far.
    var all: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// Formats each event into a line of `log`.
    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            log.append(([event.level.rawValue, event.message.description] + pairs).joined(separator: " "))
        }
    }
}
