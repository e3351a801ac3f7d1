import Synchronization

/// A disposable holding one inner disposable at a time; replacing it disposes the previous one.
///
/// Once disposed, any inner disposable set later is disposed at once.
/// Thread-safe: replacement and disposal may race; every inner disposable is disposed exactly once.
public final class SerialDisposable: Disposable {
    private struct State {
        var inner: (any Disposable)?
        var isDisposed = false
    }

    private let state: Mutex<State>

    /// A serial disposable, optionally holding `inner`.
    public init(_ inner: (any Disposable)? = nil) {
        state = Mutex(State(inner: inner))
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current inner disposable. Setting it disposes the one it replaces.
    public var inner: (any Disposable)? {
        get { state.withLock { $0.inner } }
        set {
            let (old, rejected) = state.withLock { state -> ((any Disposable)?, Bool) in
                guard !state.isDisposed else { return (nil, true) }
                defer { state.inner = newValue }
                return (state.inner, false)
            }
            if rejected { newValue?.dispose() }
            if old !== newValue { old?.dispose() }
        }
    }

    /// Disposes; calling it again does nothing.
    public func dispose() {
        let inner = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.inner = nil }
            return state.inner
        }
        inner?.dispose()
    }
}
