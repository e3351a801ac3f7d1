import EventLog
import Logging

/// Logs the event log's routine housekeeping: events removed by retention (debug, one line per
/// stream and commit) and background checkpoints (debug, with their duration and pages; warning
/// when one took `slowCheckpoint` or longer, as commits then risk waiting for the WAL).
///
/// Thread-safety: stateless; the observers it returns may be called from any thread.
enum StorageActivityLogging {
    /// A checkpoint cycle at least this long is logged as a warning.
    static let slowCheckpoint = Duration.seconds(1)

    /// An observer for `EventLogOptions.retentionObserver` that logs to `logger`.
    static func retentionObserver(_ logger: Logger) -> @Sendable (RetentionDrop) -> Void {
        { drop in
            logger.debug("retention dropped events", metadata: [
                "stream": .string(drop.stream), "events": .stringConvertible(drop.events),
                "first-sequence": .stringConvertible(drop.firstSequence),
                "limits": .string(drop.limits.map(\.rawValue).joined(separator: ",")),
            ])
        }
    }

    /// An observer for `EventLogOptions.checkpointObserver` that logs to `logger`.
    static func checkpointObserver(_ logger: Logger) -> @Sendable (CheckpointReport) -> Void {
        { report in
            let metadata: Logger.Metadata = [
                "duration-ms": .stringConvertible(milliseconds(report.duration)),
                "wal-pages": .stringConvertible(report.walPages), "copied-pages": .stringConvertible(report.copiedPages),
                "reached-end": .stringConvertible(report.reachedEnd),
            ]
            if report.duration >= slowCheckpoint {
                logger.warning("a checkpoint was slow: copying the write-ahead log into the database took \(milliseconds(report.duration)) ms; check the disk's load", metadata: metadata)
            } else {
                logger.debug("checkpoint", metadata: metadata)
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
