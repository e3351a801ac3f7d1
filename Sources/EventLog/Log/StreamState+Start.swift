extension StreamState {
    /// The first sequence a reader starting at `position` gets (past the last event for `.newOnly`);
    /// `firstAtOrAfter` finds the first sequence whose timestamp is at or after a time, which only a
    /// look at the blocks can tell.
    package func startSequence(_ position: StartPosition, firstAtOrAfter: (Int64) throws -> UInt64) rethrows -> UInt64 {
        let position = position == .streamDefault ? policy.replay : position
        switch position {
        case .streamDefault, .all:
            return firstSequence
        case .newOnly:
            return lastSequence + 1
        case let .last(count):
            return lastSequence >= count ? max(firstSequence, lastSequence - count + 1) : firstSequence
        case let .from(sequence):
            return max(firstSequence, sequence)
        case let .since(microseconds):
            return max(firstSequence, try firstAtOrAfter(microseconds))
        }
    }
}
