/// Disposes its inner disposable when it is itself deinitialized: ties work to a scope or an owner.
///
/// Thread-safe as its inner disposable is.
public final class ScopedDisposable<Inner: Disposable>: Disposable {
    /// The disposable this one guards.
    public let inner: Inner

    /// Guards `inner`, disposing it when this object goes away.
    public init(_ inner: Inner) {
        self.inner = inner
    }

    deinit { inner.dispose() }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { inner.isDisposed }

    /// Disposes; calling it again does nothing.
    public func dispose() { inner.dispose() }
}

extension ScopedDisposable where Inner == CompositeDisposable {
    /// Adds `disposable` to the guarded composite.
    @discardableResult
    public static func += (scoped: ScopedDisposable, disposable: (any Disposable)?) -> any Disposable {
        scoped.inner.add(disposable)
    }
}
