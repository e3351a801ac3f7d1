/// A stream's retention limits and the position late subscribers start at by default: the same value
/// for an in-process `EventLog`, a persistent subject and a stream in `streamd`.
///
/// `StreamPolicy(capacity: .last(100))` keeps the last hundred events; `.last` alone is replay-last.
/// Limits are enforced in the same transaction as each append. Values are Sendable.
///
/// ## Example
///
/// ```swift
/// // The last 100 events, none older than a day; late readers get the last 10 by default.
/// let policy = StreamPolicy(capacity: .last(100), maxAge: .seconds(86_400), replay: .last(10))
/// let prices = try PersistentReplaySubject<Double>(log: log, stream: "prices", policy: policy)
/// _ = try await connection.createStream("prices", policy: policy)   // the same value for the daemon
/// ```
public struct StreamPolicy: Hashable, Sendable {
    /// How many events to keep: `.unlimited`, `.last` (replay-last) or `.last(n)`.
    public var capacity: ReplayCapacity
    /// Events older than this (by their timestamp) are dropped; nil keeps them regardless of age.
    /// `streamd` keeps it in whole milliseconds.
    public var maxAge: Duration?
    /// Bound on the stream's stored (compressed) bytes; the oldest whole blocks are dropped while it
    /// is exceeded, but never the newest block. Nil means no bound.
    public var maxBytes: UInt64?
    /// Where readers asking for `.streamDefault` start.
    public var replay: StartPosition
    /// How long `streamd` remembers message ids to refuse a retried publish; nil: the daemon's default
    /// (the last 10 000 events). Independent of the events kept: an id
    /// outlives its event when retention drops the event first.
    public var deduplication: DeduplicationWindow?

    /// A policy; the default keeps everything, replays everything and de-duplicates as the daemon does.
    public init(
        capacity: ReplayCapacity = .unlimited, maxAge: Duration? = nil, maxBytes: UInt64? = nil,
        replay: StartPosition = .all, deduplication: DeduplicationWindow? = nil
    ) {
        self.capacity = capacity
        self.maxAge = maxAge
        self.maxBytes = maxBytes
        self.replay = replay
        self.deduplication = deduplication
    }

    /// The longest age a policy can hold: its microseconds fit in the 64-bit integer it is stored as.
    package static let longestMaxAge = Duration.seconds(Int64.max / 1_000_000 - 1)

    /// What is wrong with the policy, as a sentence saying what to do; nil when it can be kept.
    package var problem: String? {
        if let maxAge, maxAge <= .zero {
            return "maxAge must be positive (use nil for no limit)."
        }
        if let maxAge, maxAge > Self.longestMaxAge {
            return "maxAge \(maxAge) is too long to store; use nil for no limit."
        }
        if let maxBytes, maxBytes == 0 || maxBytes > UInt64(Int64.max) {
            return "maxBytes must be 1...\(Int64.max) (use nil for no limit)."
        }
        if replay == .streamDefault {
            return "a stream's replay policy cannot be .streamDefault; pick a concrete position."
        }
        return deduplication?.problem
    }

    /// `maxAge` in whole milliseconds, rounded up so that no positive age becomes 0, as `streamd`
    /// keeps it.
    package var maxAgeMilliseconds: UInt64? {
        maxAge?.wholeMillisecondsRoundedUp
    }

    /// `maxAge` in whole microseconds, as the log stores it.
    package var maxAgeMicroseconds: Int64? {
        maxAge?.wholeMicroseconds
    }
}
