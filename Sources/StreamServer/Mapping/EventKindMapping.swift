import EventLog
import StreamProtocol

/// The wire's event kind for the log's.
enum EventKindMapping {
    /// The wire event for a stored event.
    static func wireKind(_ kind: LogEvent.Kind) -> WireEvent.Kind {
        switch kind {
        case .completed: .completed
        case .failed: .failed
        default: .value
        }
    }
}
