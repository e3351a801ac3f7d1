import Synchronization

/// A disposable that disposes a changing set of disposables together, in the order they were added.
///
/// The order matters where one member's disposal must be seen before another's: a started producer
/// adds its interrupter before its observation, so that the interruption reaches the observers before
/// they are detached. Adding to a composite that is already disposed disposes the addition at once.
/// Thread-safe: adds, removals and disposal may race; each member is disposed exactly once.
public final class CompositeDisposable: Disposable {
    private struct State {
        var members: [(key: UInt64, disposable: any Disposable)] = []
        var nextKey: UInt64 = 0
        var isDisposed = false
    }

    private let state = Mutex(State())

    /// An empty composite.
    public init() {}

    /// A composite holding `disposables`.
    public init(_ disposables: [any Disposable]) {
        for disposable in disposables { add(disposable) }
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Adds a disposable; returns a handle whose disposal removes it again without disposing it.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> any Disposable {
        guard let disposable else { return AnyDisposable() }
        let key = state.withLock { state -> UInt64? in
            guard !state.isDisposed else { return nil }
            defer { state.nextKey += 1 }
            state.members.append((state.nextKey, disposable))
            return state.nextKey
        }
        guard let key else {
            disposable.dispose()
            return AnyDisposable()
        }
        return AnyDisposable { [weak self] in
            self?.state.withLock { $0.members.removeAll { $0.key == key } }
        }
    }

    /// Adds an action to run on disposal; returns a handle that removes it again.
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        add(AnyDisposable(action))
    }

    /// Disposes; calling it again does nothing.
    public func dispose() {
        let members = state.withLock { state -> [(key: UInt64, disposable: any Disposable)] in
            guard !state.isDisposed else { return [] }
            state.isDisposed = true
            defer { state.members = [] }
            return state.members
        }
        for member in members { member.disposable.dispose() }
    }

    /// Adds `disposable` to `composite`.
    @discardableResult
    public static func += (composite: CompositeDisposable, disposable: (any Disposable)?) -> any Disposable {
        composite.add(disposable)
    }

    /// Adds an action to `composite`.
    @discardableResult
    public static func += (composite: CompositeDisposable, action: @escaping @Sendable () -> Void) -> any Disposable {
        composite.add(action)
    }
}
