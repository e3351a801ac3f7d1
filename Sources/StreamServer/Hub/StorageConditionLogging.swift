import EventLog
import Logging

/// Logs the event log's room to write: a warning when its disk fills (appends are then refused,
/// deletes and truncations still work), a notice when it has room again. Each is logged once per
/// change, as the log reports it.
///
/// Thread-safety: stateless; the observer it returns may be called from any thread.
enum StorageConditionLogging {
    /// An observer for `EventLogOptions.storageObserver` that logs to `logger`.
    static func observer(_ logger: Logger) -> @Sendable (StorageCondition) -> Void {
        { condition in
            let metadata: Logger.Metadata =
                condition.isServer
                ? ["db": "\(condition.path)"]
                : [
                    "db": "\(condition.path)", "free-bytes": .stringConvertible(condition.freeBytes),
                    "database-bytes": .stringConvertible(condition.databaseBytes), "reusable-bytes": .stringConvertible(condition.reusableBytes),
                    "reserve-bytes": .stringConvertible(condition.reserveBytes),
                ]
            if condition.isFull {
                logger.warning("\(condition.description)", metadata: metadata)
            } else {
                logger.notice("\(condition.description)", metadata: metadata)
            }
        }
    }
}
