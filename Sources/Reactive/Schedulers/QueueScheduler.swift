import Dispatch

/// A scheduler that runs actions on a serial `DispatchQueue`, one at a time, in the order they fall due.
///
/// Its clock is the system's uptime (`DispatchTime`), which does not jump with wall-clock changes and
/// stops while the machine sleeps. Timed actions use `asyncAfter`, repeating ones a `DispatchSourceTimer`;
/// an action due now or earlier is queued with `async`, so it keeps its order with the actions queued
/// before it. Disposing a scheduled action cancels it if it has not started.
///
/// Thread-safe: actions may be scheduled and disposed from any thread.
public final class QueueScheduler: TimeScheduler {
    /// The serial queue the actions run on.
    public let queue: DispatchQueue

    /// A scheduler over a new serial queue.
    ///
    /// - Parameters:
    ///   - label: the queue's label, shown in debuggers and crash reports.
    ///   - qos: the quality of service of the queue.
    ///   - target: a queue to target, if any.
    public init(
        label: String = "streamd.Reactive.QueueScheduler", qos: DispatchQoS = .default,
        target: DispatchQueue? = nil
    ) {
        queue = DispatchQueue(label: label, qos: qos, target: target)
    }

    /// A scheduler over the main queue, which runs only while the main thread services it
    /// (`dispatchMain()`, a run loop, or the main actor's executor).
    public static let main = QueueScheduler(serialQueue: .main)

    private init(serialQueue: DispatchQueue) {
        queue = serialQueue
    }

    /// The current uptime, in nanoseconds since boot.
    public var now: SchedulerTime { SchedulerTime(nanoseconds: DispatchTime.now().uptimeNanoseconds) }

    /// Queues `action` behind the work already on the queue.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let scheduled = ScheduledAction(action)
        queue.async { scheduled.run() }
        return scheduled
    }

    /// Runs `action` on the queue at `time`; a time already past queues it like `schedule(_:)`.
    @discardableResult
    public func schedule(at time: SchedulerTime, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        guard time > now else { return schedule(action) }
        let scheduled = ScheduledAction(action)
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: time.nanoseconds)) { scheduled.run() }
        return scheduled
    }

    /// Runs `action` on the queue at `time`, then every `interval`, through a dispatch timer source.
    @discardableResult
    public func schedule(
        at time: SchedulerTime, every interval: Duration, leeway: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> (any Disposable)? {
        precondition(interval > .zero, "a repeating action needs a positive interval")
        let scheduled = ScheduledAction(action)
        let timer = RepeatingTimer(queue: queue)
        timer.start(
            at: DispatchTime(uptimeNanoseconds: Swift.max(time.nanoseconds, 1)),
            every: .nanoseconds(Int(interval.saturatingNanoseconds)),
            leeway: .nanoseconds(Int(Swift.max(leeway.saturatingNanoseconds, 0)))
        ) { scheduled.runRepeating() }
        return AnyDisposable {
            scheduled.dispose()
            timer.cancel()
        }
    }
}

/// A dispatch timer source, owned by the disposable of one repeating action.
///
/// `@unchecked Sendable` is sound because `DispatchSourceTimer` is itself thread-safe: Dispatch documents
/// `cancel()` as callable from any thread, and the source is configured and resumed once, in `start`,
/// before the object is shared.
private final class RepeatingTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    init(queue: DispatchQueue) {
        source = DispatchSource.makeTimerSource(queue: queue)
    }

    func start(
        at deadline: DispatchTime, every interval: DispatchTimeInterval, leeway: DispatchTimeInterval,
        _ handler: @escaping @Sendable () -> Void
    ) {
        source.schedule(deadline: deadline, repeating: interval, leeway: leeway)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() { source.cancel() }
}
