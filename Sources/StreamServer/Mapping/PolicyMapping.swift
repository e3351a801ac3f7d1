import EventLog
import StreamProtocol

/// Conversions between the wire's policy and position types and the log's.
enum PolicyMapping {
    /// The log's read position for a subscriber's start position.
    static func readPosition(_ start: StartPosition) -> ReadPosition {
        switch start {
        case .streamDefault: .streamDefault
        case .all: .allRetained
        case let .last(count): .last(count)
        case let .fromSequence(sequence): .from(sequence: sequence)
        case let .since(microseconds): .since(microseconds: microseconds)
        case .newOnly: .onlyNew
        }
    }

    /// The wire's start position for a log read position.
    static func startPosition(_ position: ReadPosition) -> StartPosition {
        switch position.start {
        case .streamDefault: .streamDefault
        case .allRetained: .all
        case let .last(count): .last(count)
        case let .fromSequence(sequence): .fromSequence(sequence)
        case let .since(microseconds): .since(microseconds: microseconds)
        case .onlyNew: .newOnly
        }
    }

    /// The log's policy for a wire policy; throws `invalidArgument` for values the log cannot hold.
    static func logPolicy(_ policy: StreamProtocol.StreamPolicy, stream: String) throws(EventLogError) -> LogStreamPolicy {
        let capacity: StreamCapacity
        switch policy.capacity {
        case nil: capacity = .unlimited
        case let count?:
            guard count >= 1, count <= UInt64(Int64.max) else {
                throw EventLogError(.invalidArgument, "policy.capacity is \(count), but must be 1...\(Int64.max) (absent for unlimited).", stream: stream)
            }
            capacity = .last(count)
        }
        var maxAge: Duration?
        if let milliseconds = policy.maxAgeMilliseconds {
            guard milliseconds >= 1, milliseconds <= UInt64(Int64.max / 1_000) else {
                throw EventLogError(.invalidArgument, "policy.max_age_ms is \(milliseconds), but must be 1...\(Int64.max / 1_000) (absent for no limit).", stream: stream)
            }
            maxAge = .milliseconds(Int64(milliseconds))
        }
        var maxBytes: Int64?
        if let bytes = policy.maxBytes {
            guard bytes >= 1, bytes <= UInt64(Int64.max) else {
                throw EventLogError(.invalidArgument, "policy.max_bytes is \(bytes), but must be 1...\(Int64.max) (absent for no limit).", stream: stream)
            }
            maxBytes = Int64(bytes)
        }
        if policy.defaultStart == .streamDefault {
            throw EventLogError(.invalidArgument, "policy.default_start cannot be 0 (the stream's default); pick a concrete start position.", stream: stream)
        }
        return LogStreamPolicy(capacity: capacity, maxAge: maxAge, maxBytes: maxBytes, replay: readPosition(policy.defaultStart))
    }

    /// The wire's policy for a log policy.
    static func wirePolicy(_ policy: LogStreamPolicy) -> StreamProtocol.StreamPolicy {
        let milliseconds = policy.maxAge.map { age -> UInt64 in
            let parts = age.components
            return UInt64(max(0, parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000))
        }
        return StreamProtocol.StreamPolicy(
            capacity: policy.capacity.limit, maxAgeMilliseconds: milliseconds,
            maxBytes: policy.maxBytes.map { UInt64(max(0, $0)) }, defaultStart: startPosition(policy.replay))
    }

    /// The wire's view of a stream; `firstTime` is the timestamp of the first retained event, if known.
    ///
    /// `last_sequence` is the last sequence ever assigned even when nothing is retained (it is what
    /// `expected_last_sequence` compares with); `rawBytes` is the size of the stream's blocks before
    /// compression (payloads plus their framing).
    static func wireInfo(
        _ info: LogStreamInfo, firstTime: Int64, rawBytes: UInt64 = 0, subscribers: Int, publishRateMillis: UInt64 = 0
    ) -> StreamProtocol.StreamInfo {
        let empty = info.retainedCount == 0
        let state: StreamProtocol.StreamInfo.State =
            switch info.terminal {
            case .completed?: .completed
            case .failed?: .failed
            default: .open
            }
        return StreamProtocol.StreamInfo(
            name: info.name, policy: wirePolicy(info.policy), count: info.retainedCount,
            firstSequence: empty ? 0 : info.firstSequence, lastSequence: info.lastSequence,
            firstTime: empty ? 0 : firstTime, lastTime: info.lastTimestamp,
            storedBytes: UInt64(max(0, info.storedBytes)), rawBytes: rawBytes,
            subscribers: UInt32(clamping: subscribers), state: state, publishRateMillis: publishRateMillis)
    }

    /// The wire event for a stored event.
    static func wireKind(_ kind: LogEvent.Kind) -> WireEvent.Kind {
        switch kind {
        case .completed: .completed
        case .failed: .failed
        default: .value
        }
    }
}
