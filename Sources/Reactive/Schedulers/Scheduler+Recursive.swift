import Synchronization

extension Scheduler {
    /// Runs `action` on this scheduler, and again each time it calls `reschedule`, without growing the
    /// stack however many times it repeats.
    ///
    /// A trampoline: a `reschedule` called while the action runs (typically from inside it) makes the
    /// current run loop once more after the action returns, instead of nesting a call; a `reschedule`
    /// called later, when the action is not running, schedules it anew on this scheduler. Several
    /// `reschedule` calls before the next run count as one.
    ///
    /// - Returns: a disposable that stops the repetition and cancels a run not yet started.
    @discardableResult
    public func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Disposable {
        let recursion = RecursiveAction(scheduler: self, action: action)
        recursion.reschedule()
        return recursion
    }
}

/// The state machine of one `scheduleRecursive`: idle, scheduled, or running (perhaps asked to run again).
///
/// Thread-safe: `reschedule` and `dispose` may come from any thread; the state is under a mutex and the
/// action always runs outside it.
private final class RecursiveAction: Disposable {
    private enum Phase {
        case idle, scheduled, running, runningAgain
    }

    private struct State {
        var phase = Phase.idle
        var isDisposed = false
    }

    private let scheduler: any Scheduler
    private let action: @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    private let state = Mutex(State())
    private let pending = ScheduledSlot()

    init(scheduler: any Scheduler, action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    var isDisposed: Bool { state.withLock { $0.isDisposed } }

    func dispose() {
        state.withLock { $0.isDisposed = true }
        pending.dispose()
    }

    func reschedule() {
        let mustSchedule = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            switch state.phase {
            case .idle:
                state.phase = .scheduled
                return true
            case .running:
                state.phase = .runningAgain
                return false
            case .scheduled, .runningAgain:
                return false
            }
        }
        guard mustSchedule else { return }
        pending.schedule { scheduler.schedule { [self] in runLoop() } }
    }

    private func runLoop() {
        let reschedule: @Sendable () -> Void = { [self] in self.reschedule() }
        var proceed = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            state.phase = .running
            return true
        }
        while proceed {
            action(reschedule)
            proceed = state.withLock { state -> Bool in
                guard state.phase == .runningAgain, !state.isDisposed else {
                    state.phase = .idle
                    return false
                }
                state.phase = .running
                return true
            }
        }
    }
}
