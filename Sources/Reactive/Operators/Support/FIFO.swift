/// A first-in, first-out queue with amortized O(1) append and removal at the front.
///
/// Operators keep one inside their `Mutex`-guarded state; it is a plain value, not thread-safe by itself.
struct FIFO<Element> {
    private var inbox: [Element] = []
    private var outbox: [Element] = []

    init() {}

    var isEmpty: Bool { inbox.isEmpty && outbox.isEmpty }

    var count: Int { inbox.count + outbox.count }

    /// The oldest element, or `nil` when empty.
    var first: Element? { outbox.last ?? inbox.first }

    mutating func append(_ element: Element) { inbox.append(element) }

    /// Removes and returns the oldest element, or `nil` when empty.
    mutating func popFirst() -> Element? {
        if outbox.isEmpty {
            // Reversing once per refill keeps each element's cost constant over its stay in the queue.
            outbox = inbox.reversed()
            inbox = []
        }
        return outbox.popLast()
    }

    mutating func removeAll() {
        inbox = []
        outbox = []
    }
}

extension FIFO: Sendable where Element: Sendable {}
