import Synchronization

/// One value behind a lock, settable from any thread: what a test keeps a disposable or an input in
/// when a callback must reach or release it.
final class Slot<Value: Sendable>: Sendable {
    private let state: Mutex<Value?>

    init(_ value: Value? = nil) { state = Mutex(value) }

    var value: Value? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Takes the value out, so that the slot no longer keeps it alive.
    func take() -> Value? { state.withLock { value in defer { value = nil }; return value } }
}
