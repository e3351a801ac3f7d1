/// Something that can be cancelled: a subscription, scheduled work, a running producer.
///
/// `dispose()` is idempotent and may be called from any thread; conforming types are thread-safe.
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }

    /// Stops the work this disposable stands for. Calling it again does nothing.
    func dispose()
}
