import Synchronization
@testable import Reactive

/// Collects what a stream sends, from any thread, for assertions.
final class Recorder<Value: Sendable, Failure: Error>: Sendable {
    private let state = Mutex<[Event<Value, Failure>]>([])

    var events: [Event<Value, Failure>] { state.withLock { $0 } }
    var values: [Value] { events.compactMap(\.value) }
    var terminal: Event<Value, Failure>? { events.last.flatMap { $0.isTerminating ? $0 : nil } }

    var observer: Observer<Value, Failure> { Observer { [self] event in state.withLock { $0.append(event) } } }
}

/// A thread-safe counter for side effects.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .acquiringAndReleasing) }
}

/// An object whose release tests watch through a weak reference.
final class Witness: Sendable {}

struct TestError: Error, Equatable {
    var code = 1
}
