import Synchronization

/// Carries one observation's events to a `@MainActor` callback, each through `MainActorScheduler`.
///
/// Every event hops, the interruption included, so the callback runs on the main actor whichever thread
/// sent the event or disposed the observation. Once `stop()` is called, values still waiting for the main
/// actor are dropped; a terminal event is still delivered, so a disposed start still ends with one.
/// Thread-safety: `send` and `stop` may be called from any thread.
final class MainActorDelivery<Value: Sendable, Failure: Error>: Sendable {
    private let action: @MainActor (Event<Value, Failure>) -> Void
    private let stopped = Atomic<Bool>(false)
    /// This observation's own scheduler, so that its order does not depend on other streams' deliveries.
    private let scheduler = MainActorScheduler()

    init(_ action: @escaping @MainActor (Event<Value, Failure>) -> Void) {
        self.action = action
    }

    /// Schedules `event` on the main actor.
    func send(_ event: Event<Value, Failure>) {
        scheduler.schedule { [self] in
            guard event.isTerminating || !stopped.load(ordering: .acquiring) else { return }
            // `MainActorScheduler` runs its actions on the main queue, the main actor's executor; this
            // checks it at run time as well.
            MainActor.assumeIsolated { action(event) }
        }
    }

    /// Drops the values not yet delivered, and every value sent from now on.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }
}
