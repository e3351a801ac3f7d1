/// A scheduler that runs every action at once, on the calling thread, before `schedule` returns.
///
/// Useful where an API asks for a scheduler but no hop is wanted. Thread-safe: it has no state.
public struct ImmediateScheduler: Scheduler {
    /// The immediate scheduler.
    public init() {}

    /// Runs `action` now; returns `nil` because there is nothing left to cancel.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        action()
        return nil
    }
}
