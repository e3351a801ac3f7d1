import Synchronization

/// An action waiting to run on a scheduler, and the disposable that cancels it.
///
/// Disposing releases the action at once, so whatever it captured is freed even while the scheduler
/// still holds this object (a far deadline, an unadvanced test scheduler).
/// Thread-safe: `run`, `runRepeating` and `dispose` may race; a disposed action never starts.
final class ScheduledAction: Disposable {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    var isDisposed: Bool { action.withLock { $0 == nil } }

    func dispose() {
        let released = action.withLock { action in
            defer { action = nil }
            return action
        }
        // Released outside the lock: the captured state may run deinitializers.
        _ = released
    }

    /// Runs the action once, unless disposed; afterwards it counts as disposed.
    func run() {
        let taken = action.withLock { action in
            defer { action = nil }
            return action
        }
        taken?()
    }

    /// Runs the action and keeps it for the next time, unless disposed.
    func runRepeating() {
        let current = action.withLock { $0 }
        current?()
    }
}
