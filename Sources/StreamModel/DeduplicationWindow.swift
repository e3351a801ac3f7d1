/// How long a stream remembers the message ids its events were published with: a publish carrying an
/// id still remembered is answered with the original's sequence instead of being stored again.
///
/// An id is remembered while its event is among the stream's last `events` events and, with a
/// `duration`, until that long after it was stored, whichever ends first; nil lifts that bound. The
/// same value in a stream's `StreamPolicy`, in `streamd` and in `streamctl create --dedup-events
/// --dedup-window`. `streamd` keeps the ids in the log with their events (in the same commit), so
/// they hold across restarts, crashes and, on PostgreSQL, every daemon sharing the streams.
///
/// Values are Sendable.
///
/// ## Example
///
/// ```swift
/// // Retries within two minutes are recognised, however many events came meanwhile.
/// let policy = StreamPolicy(deduplication: DeduplicationWindow(duration: .seconds(120)))
/// _ = try await connection.createStream("payments", policy: policy)
/// ```
public struct DeduplicationWindow: Hashable, Sendable {
    /// Over how many of the stream's latest events ids are remembered; nil: no bound by count.
    public var events: UInt64?
    /// How long after its event was stored an id is remembered; nil: no bound by age. `streamd`
    /// keeps it in whole milliseconds.
    public var duration: Duration?

    /// A window bounded by count, by age or both; at least one bound must be given.
    public init(events: UInt64? = nil, duration: Duration? = nil) {
        self.events = events
        self.duration = duration
    }

    /// No id is remembered: publishes with ids are stored as they come.
    public static let off = DeduplicationWindow(events: 0)

    /// What is wrong with the window, as a sentence saying what to do; nil when it can be kept.
    package var problem: String? {
        if events == nil, duration == nil {
            return "a deduplication window needs a count of events, a duration or both; leave the window out for the daemon's default."
        }
        if let events, events > UInt64(Int64.max) {
            return "a deduplication window of \(events) events is too long to store; use at most \(Int64.max)."
        }
        if let duration, duration <= .zero {
            return "a deduplication window's duration must be positive; leave it out for no bound by age."
        }
        if let duration, duration > StreamPolicy.longestMaxAge {
            return "a deduplication window of \(duration) is too long to store; leave the duration out for no bound by age."
        }
        return nil
    }

    /// `duration` in whole microseconds, as the log stores it.
    package var durationMicroseconds: Int64? { duration?.wholeMicroseconds }

    /// The oldest id still remembered by a stream whose last sequence is `lastSequence`, at `now`
    /// (microseconds since the epoch): its sequence must be above `afterSequence` and its timestamp at
    /// or after `sinceTimestamp`.
    package func cutoff(lastSequence: UInt64, now: Int64) -> (afterSequence: UInt64, sinceTimestamp: Int64) {
        let after = events.map { lastSequence > $0 ? lastSequence - $0 : 0 } ?? 0
        let since = durationMicroseconds.map { now.subtractingReportingOverflow($0).overflow ? Int64.min : now - $0 } ?? Int64.min
        return (after, since)
    }
}

extension DeduplicationWindow {
    /// The window a log stored as a count of events and an age in microseconds (either NULL for no
    /// bound of its kind); nil when both are NULL, the default window.
    package init?(stored events: Int64?, _ ageMicroseconds: Int64?) {
        guard events != nil || ageMicroseconds != nil else { return nil }
        self.init(events: events.map { UInt64(max(0, $0)) }, duration: ageMicroseconds.map { .microseconds(max(1, $0)) })
    }
}
