import Synchronization

/// One observer attached to a `SignalCore`.
///
/// Thread-safety: `isActive` is an atomic flag, cleared by `cancel()` from any thread; the core checks it
/// before every delivery, so an observer that disposes itself (or another) inside a callback receives
/// nothing more, not even the rest of the event being delivered.
@usableFromInline
final class SignalSubscription<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let action: @Sendable (Event<Value, Failure>) -> Void
    private let core: SignalCore<Value, Failure>
    @usableFromInline
    let cancelled = Atomic<Bool>(false)

    @usableFromInline
    init(core: SignalCore<Value, Failure>, action: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.core = core
        self.action = action
    }

    @inlinable
    var isActive: Bool { !cancelled.load(ordering: .relaxed) }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        core.detach(self)
    }
}

/// The disposable an observer gets for its subscription. It holds the subscription weakly, so an
/// observer's closure is released as soon as it is detached, even while this handle is kept.
///
/// Thread-safe.
@usableFromInline
final class ObservationDisposable<Value: Sendable, Failure: Error>: Disposable {
    private weak let subscription: SignalSubscription<Value, Failure>?
    private let disposed = Atomic<Bool>(false)

    @usableFromInline
    init(_ subscription: SignalSubscription<Value, Failure>) {
        self.subscription = subscription
    }

    @usableFromInline
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    @usableFromInline
    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        subscription?.cancel()
    }
}
