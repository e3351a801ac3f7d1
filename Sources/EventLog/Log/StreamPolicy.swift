/// How many events a stream keeps: all of them, or the last N (`replayLast` keeps one).
///
/// Values are immutable and Sendable.
public struct StreamCapacity: Hashable, Sendable, CustomStringConvertible {
    /// The number of events kept, or nil for unlimited.
    public let limit: UInt64?

    private init(limit: UInt64?) { self.limit = limit }

    /// Keep every event until it is truncated or expires.
    public static let unlimited = StreamCapacity(limit: nil)
    /// Keep only the latest event (the replayLast policy).
    public static let replayLast = StreamCapacity(limit: 1)
    /// Keep the latest `count` events; `count` must be at least 1.
    public static func last(_ count: UInt64) -> StreamCapacity { StreamCapacity(limit: count) }

    /// The value as a log line or error report shows it.
    public var description: String { limit.map { "last(\($0))" } ?? "unlimited" }
}

/// Where a reader starts in a stream.
///
/// Values are immutable and Sendable.
public struct ReadPosition: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Int64, Sendable { case streamDefault = 0, allRetained, last, fromSequence, sinceTime, onlyNew }
    let kind: Kind
    let argument: Int64

    /// The stream's own default (its policy's `replay`; `allRetained` unless set otherwise).
    public static let streamDefault = ReadPosition(kind: .streamDefault, argument: 0)
    /// Every retained event.
    public static let allRetained = ReadPosition(kind: .allRetained, argument: 0)
    /// Nothing stored, only events appended from now on.
    public static let onlyNew = ReadPosition(kind: .onlyNew, argument: 0)
    /// The last `count` retained events (fewer if fewer are retained).
    public static func last(_ count: UInt64) -> ReadPosition { ReadPosition(kind: .last, argument: Int64(clamping: count)) }
    /// From sequence `sequence` on (from the first retained one if `sequence` was trimmed).
    public static func from(sequence: UInt64) -> ReadPosition { ReadPosition(kind: .fromSequence, argument: Int64(clamping: sequence)) }
    /// Events whose timestamp is at or after `microseconds` since the Unix epoch.
    public static func since(microseconds: Int64) -> ReadPosition { ReadPosition(kind: .sinceTime, argument: microseconds) }

    /// The value as a log line or error report shows it.
    public var description: String {
        switch kind {
        case .streamDefault: "streamDefault"
        case .allRetained: "allRetained"
        case .onlyNew: "onlyNew"
        case .last: "last(\(argument))"
        case .fromSequence: "from(sequence: \(argument))"
        case .sinceTime: "since(microseconds: \(argument))"
        }
    }

    /// The position spelled out, for code that maps it to another representation (a wire protocol).
    public enum Start: Hashable, Sendable {
        /// The stream's own replay position.
        case streamDefault
        /// Every retained event.
        case allRetained
        /// The last N events.
        case last(UInt64)
        /// From this sequence, inclusive.
        case fromSequence(UInt64)
        /// Events at or after this time.
        case since(microseconds: Int64)
        /// Only events appended from now on.
        case onlyNew
    }

    /// The position spelled out.
    public var start: Start {
        switch kind {
        case .streamDefault: .streamDefault
        case .allRetained: .allRetained
        case .last: .last(UInt64(max(0, argument)))
        case .fromSequence: .fromSequence(UInt64(max(0, argument)))
        case .sinceTime: .since(microseconds: argument)
        case .onlyNew: .onlyNew
        }
    }
}

/// A stream's retention limits and the position late subscribers start at by default.
///
/// Limits are enforced by the log in the same transaction as each append (and by `enforceRetention`).
/// Values are Sendable.
public struct StreamPolicy: Hashable, Sendable {
    /// How many events to keep.
    public var capacity: StreamCapacity
    /// Events older than this (by their timestamp) are dropped; nil keeps them regardless of age.
    public var maxAge: Duration?
    /// Bound on the stream's stored (compressed) block bytes; the oldest whole blocks are dropped while
    /// it is exceeded, but never the newest block. Nil means no bound.
    public var maxBytes: Int64?
    /// Where readers asking for `.streamDefault` start.
    public var replay: ReadPosition

    /// A policy; the default keeps everything and replays everything.
    public init(capacity: StreamCapacity = .unlimited, maxAge: Duration? = nil, maxBytes: Int64? = nil, replay: ReadPosition = .allRetained) {
        self.capacity = capacity
        self.maxAge = maxAge
        self.maxBytes = maxBytes
        self.replay = replay
    }

    /// Throws `invalidArgument` for limits that cannot work.
    func validate(stream: String) throws(EventLogError) {
        if let limit = capacity.limit, limit == 0 || limit > UInt64(Int64.max) {
            throw EventLogError(.invalidArgument, "capacity must be at least 1 event (use .unlimited for no limit).", stream: stream)
        }
        if let maxAge, maxAge <= .zero {
            throw EventLogError(.invalidArgument, "maxAge must be positive (use nil for no limit).", stream: stream)
        }
        // Microseconds are stored in an Int64: about 292,000 years is the longest age that fits.
        if let maxAge, maxAge.components.seconds > Int64.max / 1_000_000 - 1 {
            throw EventLogError(.invalidArgument, "maxAge \(maxAge) is too long to store; use nil for no limit.", stream: stream)
        }
        if let maxBytes, maxBytes <= 0 {
            throw EventLogError(.invalidArgument, "maxBytes must be positive (use nil for no limit).", stream: stream)
        }
        if replay.kind == .streamDefault {
            throw EventLogError(.invalidArgument, "a stream's replay policy cannot be .streamDefault; pick a concrete position.", stream: stream)
        }
    }

    var maxAgeMicroseconds: Int64? {
        maxAge.map { $0.components.seconds * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000 }
    }
}
