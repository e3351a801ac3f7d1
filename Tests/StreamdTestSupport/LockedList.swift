import Synchronization

/// A list that tasks and threads add to and read, for what a test's members, publishers or handlers
/// collect.
///
/// Thread-safety: Sendable; under a mutex.
public final class LockedList<Element: Sendable>: Sendable {
    private let elements = Mutex<[Element]>([])

    public init() {}

    public func append(_ element: Element) { elements.withLock { $0.append(element) } }

    public func append(contentsOf more: [Element]) { elements.withLock { $0 += more } }

    public var all: [Element] { elements.withLock { $0 } }

    public var count: Int { elements.withLock { $0.count } }
}
