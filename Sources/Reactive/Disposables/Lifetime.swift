/// How long something lives: work attached to a lifetime is disposed when it ends.
///
/// A lifetime is ended by its `Token`, either explicitly or when the token is deinitialized, so an
/// object that owns the token ties everything observing its lifetime to its own.
/// Thread-safe: observers may be added and the lifetime ended from any thread.
public final class Lifetime: Sendable {
    private let disposables: CompositeDisposable

    private init(_ disposables: CompositeDisposable) {
        self.disposables = disposables
    }

    /// A lifetime and the token that ends it.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let token = Token()
        return (Lifetime(token.disposables), token)
    }

    /// A lifetime that has already ended.
    public static let empty: Lifetime = {
        let (lifetime, token) = make()
        token.end()
        return lifetime
    }()

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { disposables.isDisposed }

    /// Runs `action` when the lifetime ends (at once if it already has); the handle cancels that.
    @discardableResult
    public func observeEnded(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        disposables.add(action)
    }

    /// Disposes `disposable` when the lifetime ends (at once if it already has).
    @discardableResult
    public static func += (lifetime: Lifetime, disposable: (any Disposable)?) -> any Disposable {
        lifetime.disposables.add(disposable)
    }

    /// Ends its lifetime when ended explicitly or deinitialized, whichever comes first.
    ///
    /// Thread-safe.
    public final class Token: Sendable {
        fileprivate let disposables = CompositeDisposable()

        /// A token for a lifetime that has not ended.
        public init() {}

        /// Ends the lifetime now.
        public func end() { disposables.dispose() }

        /// Whether the lifetime has ended.
        public var hasEnded: Bool { disposables.isDisposed }

        deinit { disposables.dispose() }
    }
}
