import Synchronization
import Testing
@testable import Reactive

@Suite struct ScheduledActionTests {
    /// A timer ticking every 2 ms for ten minutes runs its action 300 000 times; it must neither slow
    /// down nor overflow the stack when it is finally released.
    @Test func aRepeatingActionRunManyTimesStaysOneCallDeepAndIsReleasedWhenDisposed() {
        final class Captured: Sendable {}
        weak var captured: Captured?
        let ticks = Atomic<Int>(0)
        let action: ScheduledAction = {
            let object = Captured()
            captured = object
            return ScheduledAction { _ = object; ticks.add(1, ordering: .relaxed) }
        }()
        for _ in 0..<300_000 { action.runRepeating() }
        #expect(ticks.load(ordering: .relaxed) == 300_000)
        action.dispose()
        #expect(captured == nil, "disposing releases what the action captured")
        action.runRepeating()
        #expect(ticks.load(ordering: .relaxed) == 300_000, "a disposed action never runs")
    }
}
