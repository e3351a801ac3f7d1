/// Something that runs actions: at once, on a queue, or in virtual time.
///
/// Conforming types are thread-safe: actions may be scheduled from any thread.
public protocol Scheduler: Sendable {
    /// Runs `action` as soon as the scheduler can.
    ///
    /// - Returns: a disposable that cancels the action if it has not started yet, or `nil` when the
    ///   action cannot be cancelled (for instance because it already ran).
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)?
}

/// A scheduler with a clock, that can run actions at a given time and repeatedly.
///
/// Conforming types are thread-safe: actions may be scheduled from any thread.
public protocol TimeScheduler: Scheduler {
    /// The scheduler's current time.
    var now: SchedulerTime { get }

    /// Runs `action` at `time`, or as soon as possible if `time` has passed.
    ///
    /// - Returns: a disposable that cancels the action if it has not started yet.
    @discardableResult
    func schedule(at time: SchedulerTime, _ action: @escaping @Sendable () -> Void) -> (any Disposable)?

    /// Runs `action` at `time` and then every `interval` until disposed.
    ///
    /// - Parameters:
    ///   - time: when the first run is due.
    ///   - interval: the time between runs; must be positive.
    ///   - leeway: how late the scheduler may run each action, so that it can coalesce work.
    ///   - action: the work to run each time.
    /// - Returns: a disposable that stops the repetition.
    @discardableResult
    func schedule(
        at time: SchedulerTime, every interval: Duration, leeway: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> (any Disposable)?
}

extension TimeScheduler {
    /// Runs `action` once `delay` has passed from now.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        schedule(at: now + delay, action)
    }

    /// Runs `action` once `delay` has passed from now, then every `interval` until disposed.
    @discardableResult
    public func schedule(
        after delay: Duration, every interval: Duration, leeway: Duration = .zero,
        _ action: @escaping @Sendable () -> Void
    ) -> (any Disposable)? {
        schedule(at: now + delay, every: interval, leeway: leeway, action)
    }
}
