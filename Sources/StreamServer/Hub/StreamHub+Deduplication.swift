extension StreamHub {
    /// Brings the message ids remembered over all streams back under their byte limit, when a
    /// publish took them past it: the largest windows are cut down to one common size, each
    /// forgetting its oldest ids, until the total is 15/16 of the limit (so the next trim is some
    /// thousands of ids away). Small windows keep their ids.
    ///
    /// Call it holding no stream's lock: it takes each window's lock in turn, never two at once.
    func trimDeduplicationWindows() {
        let budget = deduplicationBytes
        guard budget.isOverLimit else { return }
        let excess = budget.usedBytes - (budget.limit - budget.limit / 16)
        let sizes = streams.withLock { Array($0.values) }
            .map { entry in (entry: entry, bytes: entry.window.withLock { $0.bytes }) }
            .filter { $0.bytes > 0 }
            .sorted { $0.bytes > $1.bytes }
        guard let level = Self.commonSize(cutting: excess, from: sizes.map(\.bytes)) else { return }
        for (entry, bytes) in sizes where bytes > level {
            entry.window.withLock { _ = $0.forgetOldest(bytes: bytes - level) }
        }
    }

    /// The size to cut every window larger than it down to, so that `excess` bytes are given back;
    /// `sizes` are sorted largest first. Nil when there is nothing to cut.
    static func commonSize(cutting excess: Int, from sizes: [Int]) -> Int? {
        guard excess > 0, !sizes.isEmpty else { return nil }
        var sum = 0
        for count in 1...sizes.count {
            sum += sizes[count - 1]
            let next = count < sizes.count ? sizes[count] : 0
            if sum - count * next >= excess { return max(0, (sum - excess) / count) }
        }
        return 0
    }
}
