import Synchronization

/// A disposable that disposes a changing set of disposables together.
///
/// Adding to a composite that is already disposed disposes the addition at once.
/// Thread-safe: adds, removals and disposal may race; each member is disposed exactly once.
public final class CompositeDisposable: Disposable {
    private struct State {
        var members: [ObjectIdentifier: any Disposable] = [:]
        var isDisposed = false
    }

    private let state = Mutex(State())

    /// An empty composite.
    public init() {}

    /// A composite holding `disposables`.
    public init(_ disposables: [any Disposable]) {
        for disposable in disposables { add(disposable) }
    }

    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Adds a disposable; returns a handle whose disposal removes it again without disposing it.
    @discardableResult
    public func add(_ disposable: (any Disposable)?) -> any Disposable {
        guard let disposable else { return AnyDisposable() }
        let key = ObjectIdentifier(disposable)
        let added = state.withLock { state in
            guard !state.isDisposed else { return false }
            state.members[key] = disposable
            return true
        }
        guard added else {
            disposable.dispose()
            return AnyDisposable()
        }
        return AnyDisposable { [weak self] in
            _ = self?.state.withLock { $0.members.removeValue(forKey: key) }
        }
    }

    /// Adds an action to run on disposal; returns a handle that removes it again.
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        add(AnyDisposable(action))
    }

    public func dispose() {
        let members = state.withLock { state -> [any Disposable] in
            guard !state.isDisposed else { return [] }
            state.isDisposed = true
            defer { state.members = [:] }
            return Array(state.members.values)
        }
        for member in members { member.dispose() }
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
