import EventLog
import Testing

extension LogStorage {
    /// Every event of `stream` from `position` (tests only: holds them all).
    public func readAll(_ stream: String, from position: StartPosition = .streamDefault) throws -> [LogEvent] {
        var events: [LogEvent] = []
        try read(stream, from: position) { event in
            events.append(event.copy())
            return true
        }
        return events
    }
}

/// Expects `body` to throw an `EventLogError` with `code`, and returns it.
@discardableResult
public func expectLogError(
    _ code: EventLogError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> EventLogError? {
    do {
        try body()
        Issue.record("expected EventLogError.\(code), nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as EventLogError {
        #expect(error.code == code, "got \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected EventLogError.\(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
