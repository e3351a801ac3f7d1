import EventLog

/// The events a consumer read from its stream ahead of its members: one read of the log serves many
/// small deliveries (a member's credit is often 64 events; a block holds 256).
///
/// It holds every retained event of `covered`, copied, at most `maximumEvents` and about
/// `maximumBytes` of payload. A value type, used on the consumer's queue only.
struct ReadAhead {
    static let maximumEvents = 1_024
    static let maximumBytes = 1 << 20

    private var events: [LogEvent] = []
    /// The sequences whose retained events `events` holds, all of them; nil before the first read.
    private var covered: ClosedRange<UInt64>?

    /// The retained events of `range`, from memory when it holds them, else read from `log` (with up
    /// to `maximumEvents` after them, for the deliveries to come).
    mutating func events(_ range: ClosedRange<UInt64>, of stream: String, in log: any ServedLog) throws -> ArraySlice<LogEvent> {
        if let covered, covered.contains(range.lowerBound), covered.contains(range.upperBound) { return slice(range) }
        events.removeAll(keepingCapacity: true)
        var bytes = 0
        var reachedLimit = false
        try log.read(stream, from: .from(sequence: range.lowerBound), expecting: Self.maximumEvents) { event in
            events.append(event.copy())
            bytes += event.payload.count
            // The range itself is always read whole; what follows it only while room is left.
            reachedLimit = event.sequence >= range.upperBound && (events.count >= Self.maximumEvents || bytes >= Self.maximumBytes)
            return !reachedLimit
        }
        // A read that ran out of events saw every retained event up to the end of the range at least.
        let last = events.last?.sequence ?? range.upperBound
        covered = range.lowerBound...(reachedLimit ? last : max(last, range.upperBound))
        return slice(range)
    }

    /// Forgets what it holds (the consumer was moved).
    mutating func clear() {
        events.removeAll()
        covered = nil
    }

    private func slice(_ range: ClosedRange<UInt64>) -> ArraySlice<LogEvent> {
        let start = firstIndex(atOrAfter: range.lowerBound)
        let end = firstIndex(atOrAfter: range.upperBound + 1)
        return events[start..<end]
    }

    private func firstIndex(atOrAfter sequence: UInt64) -> Int {
        var (low, high) = (0, events.count)
        while low < high {
            let middle = (low + high) / 2
            if events[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
