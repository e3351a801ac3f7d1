import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct RecursiveSchedulingTests {
    @Test func aMillionImmediateReschedulesRunWithoutGrowingTheStack() {
        let runs = Counter()
        ImmediateScheduler().scheduleRecursive { reschedule in
            runs.increment()
            if runs.value < 1_000_000 { reschedule() }
        }
        #expect(runs.value == 1_000_000)
    }

    @Test func aMillionReschedulesOnATestSchedulerRunWithoutGrowingTheStack() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value < 1_000_000 { reschedule() }
        }
        #expect(runs.value == 0)
        scheduler.advance()
        #expect(runs.value == 1_000_000)
        #expect(scheduler.isIdle)
    }

    @Test func aRescheduleCalledLaterSchedulesTheActionAnew() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value < 3 { scheduler.schedule(after: .seconds(1)) { reschedule() } }
        }
        scheduler.advance()
        #expect(runs.value == 1)
        scheduler.advance(by: .seconds(1))
        #expect(runs.value == 2)
        scheduler.advance(by: .seconds(1))
        #expect(runs.value == 3)
        scheduler.advance(by: .seconds(5))
        #expect(runs.value == 3)
    }

    @Test func disposingStopsTheRepetitionAndCancelsThePendingRun() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let box = Mutex<(@Sendable () -> Void)?>(nil)
        let disposable = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            box.withLock { $0 = reschedule }
        }
        scheduler.advance()
        #expect(runs.value == 1)
        box.withLock { $0 }?()
        #expect(scheduler.pendingActionCount == 1)
        disposable.dispose()
        #expect(scheduler.isIdle)
        box.withLock { $0 }?()
        scheduler.run()
        #expect(runs.value == 1)
    }

    @Test func disposingFromInsideTheActionEndsTheLoop() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let disposable = SerialDisposable()
        disposable.inner = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value == 5 { disposable.dispose() }
            reschedule()
        }
        scheduler.advance()
        #expect(runs.value == 5)
        #expect(scheduler.isIdle)
    }

    @Test func onAQueueSchedulerLaterReschedulesRunEveryTimeInOrder() {
        let scheduler = QueueScheduler(label: "test.recursive")
        let runs = Counter()
        let done = DispatchSemaphore(value: 0)
        let disposable = scheduler.scheduleRecursive { reschedule in
            runs.increment()
            if runs.value == 1000 {
                done.signal()
                return
            }
            if runs.value.isMultiple(of: 2) {
                reschedule()
            } else {
                scheduler.schedule { reschedule() }
            }
        }
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(runs.value == 1000)
        disposable.dispose()
    }
}
