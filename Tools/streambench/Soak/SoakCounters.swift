import Synchronization

/// A count shared between the soak's threads.
///
/// Thread-safety: Sendable; atomic.
final class SharedCount: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ amount: Int) { count.add(amount, ordering: .relaxed) }
    func set(_ value: Int) { count.store(value, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Tells the soak's threads to stop.
///
/// Thread-safety: Sendable; atomic.
final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
