/// Finds the first sequence of a stream whose timestamp is at or after a time, whichever database
/// holds its blocks: timestamps never decrease within a stream, so it is a binary search over
/// sequences (a few seeks of "the first block holding a sequence ≥ S"), then one block decoded.
///
/// Thread-safety: stateless.
package enum TimeSearch {
    /// The first sequence whose timestamp is ≥ `time`, or `lastSequence + 1` if none.
    ///
    /// - Parameter seek: calls its body with the first block holding a sequence ≥ the one given, and
    ///   its stored bytes (valid during the call), or does not call it when there is none.
    package static func firstSequence(
        atOrAfter time: Int64, lastSequence: UInt64, decoder: BlockDecoder,
        seek: (_ from: UInt64, _ body: (BlockHeader, UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> UInt64 {
        func header(from sequence: UInt64) throws -> BlockHeader? {
            var found: BlockHeader?
            try seek(sequence) { header, _ in found = header }
            return found
        }
        // Most calls (retention on each append) find the answer in the oldest block: one seek.
        guard let oldest = try header(from: 0) else { return lastSequence + 1 }
        var low: UInt64 = 0
        if oldest.lastTimestamp < time {
            // The smallest sequence whose block ends at or after `time` (past the last block counts as such).
            low = oldest.lastSequence + 1
            var high = max(low, lastSequence + 1)
            while low < high {
                let middle = low + (high - low) / 2
                if let found = try header(from: middle), found.lastTimestamp < time {
                    low = found.lastSequence + 1
                } else {
                    high = middle
                }
            }
        }
        var first = lastSequence + 1
        try seek(low) { header, stored in
            guard header.lastTimestamp >= time else { return }
            if header.firstTimestamp >= time {
                first = header.firstSequence
                return
            }
            first = header.lastSequence + 1
            _ = try decoder.decode(header, stored: stored, from: 0) { event in
                guard event.timestamp < time else {
                    first = event.sequence
                    return false
                }
                return true
            }
        }
        return first
    }
}
