import Dispatch
import Synchronization
@testable import Reactive

/// The test's own mark on the main queue, independent of `MainActorScheduler`'s. On Linux the main queue
/// is drained by pool threads once the main thread has called `dispatchMain()`, so "on the main actor"
/// means "on the main queue", not "on one thread".
private let testMainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Whether the caller runs on the main queue; touch it first on the main actor so the mark is set at once.
func isOnMainQueue() -> Bool { DispatchQueue.getSpecific(key: testMainQueueKey) != nil }

/// Gives the main queue turns until `condition` holds; `false` once `timeout` has passed, so a broken
/// main-actor delivery fails the test instead of hanging it.
///
/// Each turn is a block queued on the main queue, so every block queued before it has run when it
/// returns. A fallback on another queue resumes the wait if the main queue is never serviced at all.
@MainActor
func mainActorTurns(until condition: @MainActor () -> Bool, timeout: Duration = .seconds(10)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline, await nextMainQueueTurn(timeout: timeout) else { return false }
    }
    return true
}

/// Waits for one block queued now on the main queue to run: `true`, or `false` after `timeout`.
@MainActor
func nextMainQueueTurn(timeout: Duration = .seconds(10)) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let pending = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
        let resume: @Sendable (Bool) -> Void = { result in
            pending.withLock { slot in
                defer { slot = nil }
                return slot
            }?.resume(returning: result)
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(1)) { resume(true) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout.saturatingNanoseconds))) {
            resume(false)
        }
    }
}

/// A UI-style model: `@MainActor`, not `Sendable` by any box, mutated from main-actor callbacks.
@MainActor
final class PriceModel {
    init() { _ = isOnMainQueue() }

    var last: Double = 0
    var history: [Double] = []
    var events: [Event<Double, TestError>] = []
    /// Whether every callback so far ran on the main queue, the main actor's executor.
    var onMainThreadOnly = true

    func record(_ event: Event<Double, TestError>) {
        noteThread()
        events.append(event)
        if case let .value(price) = event {
            last = price
            history.append(price)
        }
    }

    func noteThread() {
        MainActor.assertIsolated()
        if !isOnMainQueue() { onMainThreadOnly = false }
    }
}

/// Waits for the main queue to carry the mark `MainActorScheduler` recognises it by: set at once when the
/// first scheduler is made on the main queue, at its next turn when another test made it elsewhere.
@MainActor
func mainQueueRecognised() async -> Bool {
    await mainActorTurns(until: { MainActorScheduler.isOnMainQueue })
}
