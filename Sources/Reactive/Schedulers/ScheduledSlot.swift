import Synchronization

/// The one pending scheduled action of an operator, replaced each time the operator schedules anew.
///
/// Unlike `SerialDisposable`, a replacement that loses a race keeps the newer action: when an action
/// that was just scheduled runs and schedules its successor before the first call has stored its
/// disposable, the late store disposes only its own (finished) action and leaves the successor pending.
/// Thread-safe: `schedule` and `dispose` may be called from any thread.
final class ScheduledSlot: Disposable {
    private struct State {
        var generation: UInt64 = 0
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = Mutex(State())

    init() {}

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// Schedules through `makeAction` and keeps the result, cancelling the action it replaces.
    func schedule(_ makeAction: () -> (any Disposable)?) {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        let action = makeAction()
        let superseded = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed, state.generation == generation else { return action }
            defer { state.current = action }
            return state.current
        }
        superseded?.dispose()
    }

    func dispose() {
        let current = state.withLock { state -> (any Disposable)? in
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
