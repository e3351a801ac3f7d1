extension LogWriter {
    /// Moves the stream's first retained sequence forward as its capacity, age and byte limits say, and
    /// deletes the blocks that fall wholly before it. Runs inside the caller's transaction.
    func applyRetention(_ state: inout StreamState, now: Int64) throws {
        let before = state.firstSequence
        // Which limits removed events, as flags: no array is built unless a drop is reported.
        var byCapacity = false, byAge = false, byBytes = false
        var first = state.firstSequence
        // Capacity counts values: a stream's terminal event (always its last) is kept besides them, so a
        // replay-last stream that completed still replays its last value, then the completion.
        if let capacity = state.policy.capacity.count {
            let kept = UInt64(capacity) + (state.terminal != 0 ? 1 : 0)
            if state.lastSequence >= kept, state.lastSequence - kept + 1 > before {
                first = state.lastSequence - kept + 1
                byCapacity = true
            }
        }
        let afterCapacity = min(first, state.lastSequence + 1)
        if let maxAge = state.policy.maxAgeMicroseconds {
            let cutoff = now - maxAge
            let fresh = try BlockStore.firstSequence(
                streamID: state.id, atOrAfter: cutoff, lastSequence: state.lastSequence, decoder: decoder, on: connection)
            byAge = fresh > before
            first = max(first, fresh)
        }
        try moveFirst(&state, to: first)
        let afterAge = state.firstSequence
        if let maxBytes = state.policy.maxBytes.map({ Int64(clamping: $0) }), state.storedBytes > maxBytes {
            let trimmedFrom = state.firstSequence
            try trimBytes(&state, to: maxBytes)
            byBytes = state.firstSequence > trimmedFrom
        }
        if state.firstSequence > before, options.retentionObserver != nil {
            let limits = [(byCapacity, RetentionDrop.Limit.capacity), (byAge, .maxAge), (byBytes, .maxBytes)].filter(\.0).map(\.1)
            droppedByRetention.append(RetentionDrop(
                stream: state.name, events: state.firstSequence - before, firstSequence: state.firstSequence, limits: limits))
        }
        if afterCapacity > before { metrics.dropped(afterCapacity - before, by: .capacity) }
        if afterAge > max(before, afterCapacity) { metrics.dropped(afterAge - max(before, afterCapacity), by: .age) }
        if state.firstSequence > afterAge { metrics.dropped(state.firstSequence - afterAge, by: .bytes) }
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
