extension LogWriter {
    /// Moves the stream's first retained sequence forward as its capacity, age and byte limits say, and
    /// deletes the blocks that fall wholly before it. Runs inside the caller's transaction.
    func applyRetention(_ state: inout StreamState, now: Int64) throws {
        var first = state.firstSequence
        // Capacity counts values: a stream's terminal event (always its last) is kept besides them, so a
        // replay-last stream that completed still replays its last value, then the completion.
        if let capacity = state.policy.capacity.limit {
            let kept = capacity + (state.terminal != 0 ? 1 : 0)
            if state.lastSequence >= kept { first = max(first, state.lastSequence - kept + 1) }
        }
        if let maxAge = state.policy.maxAgeMicroseconds {
            let cutoff = now - maxAge
            first = max(first, try BlockStore.firstSequence(
                streamID: state.id, atOrAfter: cutoff, lastSequence: state.lastSequence, decoder: decoder, on: connection))
        }
        try moveFirst(&state, to: first)
        if let maxBytes = state.policy.maxBytes, state.storedBytes > maxBytes {
            try trimBytes(&state, to: maxBytes)
        }
    }

    /// Sets the first retained sequence (never backwards, never past `lastSequence + 1`) and drops the
    /// blocks that end before it.
    func moveFirst(_ state: inout StreamState, to sequence: UInt64) throws(EventLogError) {
        let target = min(sequence, state.lastSequence + 1)
        guard target > state.firstSequence else { return }
        state.firstSequence = target
        let deleted = try BlockStore.deleteBlocks(streamID: state.id, before: target, on: connection)
        state.storedBytes -= deleted
        reclaimer?.noteFreed(deleted)
    }

    /// Drops the oldest whole blocks while the stream's stored bytes exceed `maxBytes`, keeping the newest.
    private func trimBytes(_ state: inout StreamState, to maxBytes: Int64) throws(EventLogError) {
        var excess = state.storedBytes - maxBytes
        var cut: UInt64?
        while excess > 0 {
            let blocks = try BlockStore.oldest(streamID: state.id, limit: 64, on: connection)
            var progressed = false
            for block in blocks {
                // Never the newest block: the last events appended stay readable.
                if block.last >= state.lastSequence { break }
                excess -= block.bytes
                cut = block.last + 1
                progressed = true
                if excess <= 0 { break }
            }
            guard progressed, let sequence = cut else { break }
            try moveFirst(&state, to: sequence)
            if blocks.count < 64 { break }
        }
    }
}
