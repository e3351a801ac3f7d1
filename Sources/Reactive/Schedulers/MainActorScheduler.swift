import Dispatch
import Synchronization

/// A scheduler that runs actions on the main actor, for code that updates a UI or any other
/// `@MainActor` model.
///
/// An action scheduled on the main queue while no earlier action of this scheduler is waiting runs at
/// once, before `schedule` returns; any other action is queued on the main queue behind those already
/// waiting. Running at once is what ReactiveSwift's `UIScheduler` does, for the same reason: a producer
/// started on the main actor that sends its current value synchronously (a property, a replay) has
/// updated the model by the time `start` returns, so a screen never shows one frame of stale state.
/// Counting the waiting actions keeps the order: an action never overtakes one scheduled before it on the
/// same scheduler, from whatever thread, and an action scheduled from inside a running one is queued
/// behind it instead of nesting. Each scheduler counts only its own actions, as `UIScheduler` does, so a
/// busy stream elsewhere in the program does not stop another one from delivering at once; the order
/// between actions of two different schedulers is not defined.
/// `startOnMainActor(_:)` and its siblings use one scheduler per observation.
///
/// The main actor's executor is the main queue, so actions run only while that queue is serviced:
/// `dispatchMain()`, a run loop, or an async `main`.
/// Its clock and timed actions are those of `QueueScheduler.main`.
///
/// ```swift
/// @MainActor final class SearchModel { var results: [String] = [] }
///
/// let model = SearchModel()
/// results.throttle(.milliseconds(100), on: MainActorScheduler())
///     .startWithValuesOnMainActor { model.results = $0 }
/// ```
///
/// Prefer `startOnMainActor(_:)`, `startWithValuesOnMainActor(_:)`, `observeOnMainActor(_:)` and
/// `observeValuesOnMainActor(_:)`, whose callbacks are `@MainActor`; use the scheduler itself where an
/// operator asks for one (`delay(_:on:)`, `throttle(_:on:)`, …).
///
/// Thread-safety: actions may be scheduled and disposed from any thread.
public final class MainActorScheduler: TimeScheduler {
    /// A main-actor scheduler with nothing waiting.
    public init() {
        _ = Self.mainQueueKey
    }

    /// Actions scheduled through `schedule(_:)` that have not finished, the one running at once included.
    private let waiting = Atomic<Int>(0)

    /// Marks the main queue, so that `isOnMainQueue` can tell it from the others without Foundation.
    ///
    /// Set when the first scheduler is made: at once if that happens on the main queue, at the main
    /// queue's next turn otherwise (Dispatch defers the change while the queue is busy elsewhere). Until
    /// then `isOnMainQueue` is `false` and actions are queued instead of run at once, which is never
    /// wrong, only later.
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main queue, the main actor's executor. (On Linux, once the main thread
    /// has called `dispatchMain()`, pool threads drain that queue: the queue is the test, not the thread.)
    ///
    /// A queue check rather than a thread check: a block of another queue that happens to run on the
    /// main thread (`DispatchQueue.global().sync`) is not the main actor's turn, and gets queued.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil }

    /// The current time of the main queue's clock (system uptime).
    public var now: SchedulerTime { QueueScheduler.main.now }

    /// Runs `action` on the main actor: at once when called there with nothing waiting, otherwise queued
    /// behind the actions already waiting.
    ///
    /// - Returns: `nil` when the action ran at once; otherwise a disposable that cancels it if it has
    ///   not started.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        let position = waiting.add(1, ordering: .acquiringAndReleasing).newValue
        if position == 1, Self.isOnMainQueue {
            defer { waiting.subtract(1, ordering: .acquiringAndReleasing) }
            action()
            return nil
        }
        let scheduled = ScheduledAction(action)
        DispatchQueue.main.async { [self] in
            defer { waiting.subtract(1, ordering: .acquiringAndReleasing) }
            scheduled.run()
        }
        return scheduled
    }

    /// Runs `action` on the main actor at `time`; a time already past schedules it like `schedule(_:)`.
    @discardableResult
    public func schedule(at time: SchedulerTime, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
        guard time > now else { return schedule(action) }
        return QueueScheduler.main.schedule(at: time, action)
    }

    /// Runs `action` on the main actor at `time`, then every `interval` until disposed.
    @discardableResult
    public func schedule(
        at time: SchedulerTime, every interval: Duration, leeway: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> (any Disposable)? {
        QueueScheduler.main.schedule(at: time, every: interval, leeway: leeway, action)
    }
}
