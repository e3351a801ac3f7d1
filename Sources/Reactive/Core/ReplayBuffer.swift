/// How many values a replaying stream keeps for late subscribers.
///
/// A struct over a private enum, so that new policies can be added without breaking callers.
public struct ReplayCapacity: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    enum Limit: Hashable {
        case unlimited
        case last(Int)
    }

    let limit: Limit

    private init(limit: Limit) {
        self.limit = limit
    }

    /// Keep every value.
    public static let unlimited = ReplayCapacity(limit: .unlimited)

    /// Keep only the latest value (`replayLast`).
    public static let last = ReplayCapacity(limit: .last(1))

    /// Keep the latest `count` values; `count` must be at least 1.
    public static func last(_ count: Int) -> ReplayCapacity {
        precondition(count >= 1, "a replay capacity keeps at least 1 value; use a passthrough subject to keep none")
        return ReplayCapacity(limit: .last(count))
    }

    /// Keep the latest `value` values, written as a plain number: `ReplaySubject(capacity: 1000)`.
    public init(integerLiteral value: Int) {
        precondition(value >= 1, "a replay capacity keeps at least 1 value; use a passthrough subject to keep none")
        self.init(limit: .last(value))
    }

    /// The number of values kept, or `nil` when unlimited.
    public var count: Int? {
        if case let .last(count) = limit { return count }
        return nil
    }

    /// `unlimited` or `last(n)`.
    public var description: String { count.map { "last(\($0))" } ?? "unlimited" }
}

/// The values a replaying stream keeps: a ring buffer bounded by its capacity, so memory stays
/// bounded however many values pass through.
///
/// Not thread-safe; its owner serializes access.
@usableFromInline
struct ReplayBuffer<Value>: Sequence {
    @usableFromInline
    var storage: ContiguousArray<Value> = []
    @usableFromInline
    var head = 0
    @usableFromInline
    let limit: Int?

    @usableFromInline
    init(_ capacity: ReplayCapacity) {
        limit = capacity.count
        if let limit { storage.reserveCapacity(Swift.min(limit, 1024)) }
    }

    var count: Int { storage.count }

    @inlinable
    mutating func append(_ value: Value) {
        guard let limit, storage.count == limit else { return storage.append(value) }
        storage[head] = value
        head += 1
        if head == limit { head = 0 }
    }

    @inlinable
    func makeIterator() -> Iterator { Iterator(storage: storage, head: head) }

    /// Iterates from the oldest kept value to the newest.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline
        let storage: ContiguousArray<Value>
        @usableFromInline
        let head: Int
        @usableFromInline
        var offset = 0

        @inlinable
        init(storage: ContiguousArray<Value>, head: Int) {
            self.storage = storage
            self.head = head
        }

        @inlinable
        mutating func next() -> Value? {
            guard offset < storage.count else { return nil }
            defer { offset += 1 }
            let index = head + offset
            return storage[index < storage.count ? index : index - storage.count]
        }
    }
}
@available(*, unavailable)
extension ReplayBuffer: Sendable {}
