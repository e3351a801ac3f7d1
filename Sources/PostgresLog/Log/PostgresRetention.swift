import EventLog

/// A stream's retention limits applied in PostgreSQL, with the SQLite log's rules (`LogWriter`'s
/// `applyRetention`): capacity counts values and keeps a terminal event besides them, the age limit
/// drops events older than the cut-off, the byte limit drops the oldest whole blocks but never the
/// newest, and a block is deleted once all its events fall before the first retained sequence.
///
/// Thread-safety: stateless; callers own the connection and hold the stream's row lock.
enum PostgresRetention {
    /// Moves `state`'s first retained sequence as its policy says at time `now` and deletes the blocks
    /// wholly before it; returns what it dropped, and by which limits, or nil when nothing. Runs
    /// inside the caller's transaction.
    @discardableResult
    static func apply(_ state: inout StreamState, now: Int64, decoder: BlockDecoder, on connection: PostgresConnection) throws -> RetentionDrop? {
        let before = state.firstSequence
        let byCapacity = firstWithinCapacity(state)
        var first = byCapacity
        if let maxAge = state.policy.maxAgeMicroseconds {
            let fresh = try PostgresBlocks.firstSequence(
                streamID: state.id, atOrAfter: now - maxAge, lastSequence: state.lastSequence, decoder: decoder, on: connection)
            first = max(first, fresh)
        }
        let byAge = first > byCapacity
        try moveFirst(&state, to: first, on: connection)
        let afterAge = state.firstSequence
        if let maxBytes = state.policy.maxBytes.map({ Int64(clamping: $0) }), state.storedBytes > maxBytes {
            try trimBytes(&state, to: maxBytes, on: connection)
        }
        let limits = [(byCapacity > before, RetentionDrop.Limit.capacity), (byAge, .maxAge), (state.firstSequence > afterAge, .maxBytes)]
        return drop(state, before: before, limits: limits.filter(\.0).map(\.1))
    }

    /// What moving `state`'s first retained sequence from `before` dropped, by `limits`; nil when nothing.
    static func drop(_ state: StreamState, before: UInt64, limits: [RetentionDrop.Limit]) -> RetentionDrop? {
        guard state.firstSequence > before else { return nil }
        return RetentionDrop(stream: state.name, events: state.firstSequence - before, firstSequence: state.firstSequence, limits: limits)
    }

    /// The first sequence `state`'s capacity keeps (counting values: a terminal event is kept besides
    /// them), never before its current first.
    static func firstWithinCapacity(_ state: StreamState) -> UInt64 {
        guard let capacity = state.policy.capacity.count else { return state.firstSequence }
        let kept = UInt64(capacity) + (state.hasEnded ? 1 : 0)
        return state.lastSequence >= kept ? max(state.firstSequence, min(state.lastSequence - kept + 1, state.lastSequence + 1)) : state.firstSequence
    }

    /// Whether `state`'s policy has a limit only a look at its blocks can apply (an age or a size).
    static func readsBlocks(_ state: StreamState) -> Bool {
        state.policy.maxAgeMicroseconds != nil || state.policy.maxBytes != nil
    }

    /// Sets the first retained sequence (never backwards, never past `lastSequence + 1`) and deletes
    /// the blocks that end before it.
    static func moveFirst(_ state: inout StreamState, to sequence: UInt64, on connection: PostgresConnection) throws(EventLogError) {
        let target = min(sequence, state.lastSequence + 1)
        guard target > state.firstSequence else { return }
        state.firstSequence = target
        state.storedBytes -= try PostgresBlocks.deleteBlocks(streamID: state.id, before: target, on: connection)
    }

    /// Drops the oldest whole blocks while the stream's stored bytes exceed `maxBytes`, keeping the newest.
    private static func trimBytes(_ state: inout StreamState, to maxBytes: Int64, on connection: PostgresConnection) throws(EventLogError) {
        var excess = state.storedBytes - maxBytes
        while excess > 0 {
            let blocks = try PostgresBlocks.oldest(streamID: state.id, limit: 64, on: connection)
            var cut: UInt64?
            for block in blocks {
                if block.last >= state.lastSequence { break }
                excess -= block.bytes
                cut = block.last + 1
                if excess <= 0 { break }
            }
            guard let sequence = cut else { return }
            try moveFirst(&state, to: sequence, on: connection)
            if blocks.count < 64 { return }
        }
    }
}
