import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct QueueSchedulerTests {
    @Test func actionsRunOnTheQueueInOrder() {
        let scheduler = QueueScheduler(label: "test.order")
        let journal = Journal()
        let done = DispatchSemaphore(value: 0)
        for index in 0..<100 { scheduler.schedule { journal.write("\(index)") } }
        scheduler.schedule { done.signal() }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(journal.lines == (0..<100).map { "\($0)" })
    }

    @Test func aTimedActionRunsNoEarlierThanItsDueTime() {
        let scheduler = QueueScheduler(label: "test.timed")
        let due = scheduler.now + .milliseconds(20)
        let ranAt = Mutex<SchedulerTime?>(nil)
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(at: due) {
            ranAt.withLock { $0 = scheduler.now }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        let ran: SchedulerTime? = ranAt.withLock { $0 }
        #expect(ran.map { $0 >= due } == true)
    }

    @Test func aDisposedActionDoesNotRun() {
        let scheduler = QueueScheduler(label: "test.dispose")
        let runs = Counter()
        let done = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        // Holding the queue guarantees the disposal happens before the action could start.
        scheduler.schedule { gate.wait() }
        let disposable = scheduler.schedule { runs.increment() }
        disposable?.dispose()
        gate.signal()
        scheduler.schedule { done.signal() }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(runs.value == 0)
    }

    @Test func aRepeatingActionRepeatsUntilDisposed() {
        let scheduler = QueueScheduler(label: "test.repeat")
        let ticks = Counter()
        let third = DispatchSemaphore(value: 0)
        let disposable = Mutex<(any Disposable)?>(nil)
        disposable.withLock { slot in
            slot = scheduler.schedule(after: .milliseconds(1), every: .milliseconds(2), leeway: .zero) {
                ticks.increment()
                if ticks.value == 3 { third.signal() }
            }
        }
        #expect(third.wait(timeout: .now() + .seconds(10)) == .success)
        disposable.withLock { $0?.dispose() }
        let flushed = DispatchSemaphore(value: 0)
        scheduler.schedule { flushed.signal() }
        #expect(flushed.wait(timeout: .now() + .seconds(10)) == .success)
        let afterDisposal = ticks.value
        // Anything already queued has run; a disposed timer adds nothing more after another flush.
        let again = DispatchSemaphore(value: 0)
        scheduler.schedule(after: .milliseconds(10)) { again.signal() }
        #expect(again.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(ticks.value == afterDisposal)
    }
}
