import Synchronization

/// A disposable that runs an action, at most once, when disposed.
///
/// Thread-safe: the action runs exactly once even when several threads dispose at the same time.
public final class AnyDisposable: Disposable {
    private let action: Mutex<(@Sendable () -> Void)?>
    private let disposed = Atomic<Bool>(false)

    /// A disposable that only records that it was disposed.
    public init() {
        action = Mutex(nil)
    }

    /// A disposable that runs `action` when first disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Disposes; calling it again does nothing.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let run = action.withLock { action in
            defer { action = nil }
            return action
        }
        run?()
    }
}
