import Testing
@testable import Reactive

@Suite struct ImmediateSchedulerTests {
    @Test func anActionRunsBeforeScheduleReturns() {
        let runs = Counter()
        let disposable = ImmediateScheduler().schedule { runs.increment() }
        #expect(runs.value == 1)
        #expect(disposable == nil)
    }
}
