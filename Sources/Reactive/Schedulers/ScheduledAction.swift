import Synchronization

/// An action waiting to run on a scheduler, and the disposable that cancels it.
///
/// Disposing releases the action at once, so whatever it captured is freed even while the scheduler
/// still holds this object (a far deadline, an unadvanced test scheduler).
/// The action sits in a box of its own: a closure kept directly in the generic `Mutex` would be
/// re-abstracted (wrapped in one more thunk) by every `withLock` that reads it, so a repeating action
/// grew a chain as long as its ticks, slower to call each time and deep enough to overflow the stack
/// when released.
/// Thread-safe: `run`, `runRepeating` and `dispose` may race; a disposed action never starts.
final class ScheduledAction: Disposable {
    private final class Box: Sendable {
        let action: @Sendable () -> Void
        init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    }

    private let box: Mutex<Box?>

    init(_ action: @escaping @Sendable () -> Void) {
        box = Mutex(Box(action))
    }

    var isDisposed: Bool { box.withLock { $0 == nil } }

    func dispose() {
        let released = box.withLock { box in
            defer { box = nil }
            return box
        }
        // Released outside the lock: the captured state may run deinitializers.
        _ = released
    }

    /// Runs the action once, unless disposed; afterwards it counts as disposed.
    func run() {
        let taken = box.withLock { box in
            defer { box = nil }
            return box
        }
        taken?.action()
    }

    /// Runs the action and keeps it for the next time, unless disposed.
    func runRepeating() {
        box.withLock { $0 }?.action()
    }
}
