/// The message ids a stream has stored recently, with the sequence and timestamp each one got.
///
/// Bounded: once `capacity` ids are remembered, each new id forgets the oldest. The window lives in
/// memory for one daemon run; a retry after a restart, or after `capacity` newer ids, is stored again.
/// A value type; the hub keeps it under the stream's lock.
struct DeduplicationWindow {
    struct Original: Equatable {
        let sequence: UInt64
        let timestamp: Int64
    }

    let capacity: Int
    private var originals: [String: Original] = [:]
    private var order: [String] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The number of ids remembered.
    var count: Int { originals.count }

    /// The original publish of `id`, if it is remembered.
    func original(of id: String) -> Original? { originals[id] }

    /// Remembers that `id` was stored as `sequence` at `timestamp`.
    mutating func remember(_ id: String, sequence: UInt64, timestamp: Int64) {
        guard capacity > 0, originals[id] == nil else { return }
        originals[id] = Original(sequence: sequence, timestamp: timestamp)
        if order.count < capacity {
            order.append(id)
        } else {
            originals[order[oldest]] = nil
            order[oldest] = id
            oldest = (oldest + 1) % capacity
        }
    }
}
