import Dispatch
import Synchronization
import Testing
@testable import Reactive

@Suite struct MainActorSchedulerTests {
    @Test @MainActor func actionsScheduledFromAnotherThreadRunOnTheMainActorInOrder() async {
        let scheduler = MainActorScheduler()
        let journal = Journal()
        _ = isOnMainQueue()
        let offMain = Counter()
        DispatchQueue.global().async {
            for index in 0..<100 {
                scheduler.schedule {
                    if !isOnMainQueue() { offMain.increment() }
                    journal.write("\(index)")
                }
            }
        }
        #expect(await mainActorTurns(until: { journal.lines.count == 100 }))
        #expect(journal.lines == (0..<100).map { "\($0)" })
        #expect(offMain.value == 0)
    }

    @Test @MainActor func anActionScheduledOnTheMainActorWithNothingWaitingRunsAtOnce() async {
        let scheduler = MainActorScheduler()
        #expect(await mainQueueRecognised())
        let ran = Counter()
        let disposable = scheduler.schedule { ran.increment() }
        #expect(ran.value == 1)
        #expect(disposable == nil)
    }

    @Test @MainActor func anActionScheduledOnTheMainActorWaitsBehindEarlierOnes() async {
        let scheduler = MainActorScheduler()
        let journal = Journal()
        // The main actor is busy with this test, so the first action waits until the test suspends.
        DispatchQueue.global().sync { _ = scheduler.schedule { journal.write("from another thread") } }
        scheduler.schedule { journal.write("from the main actor") }
        #expect(journal.lines.isEmpty)
        #expect(await mainActorTurns(until: { journal.lines.count == 2 }))
        #expect(journal.lines == ["from another thread", "from the main actor"])
    }

    @Test @MainActor func anActionScheduledFromInsideAnActionRunsAfterIt() async {
        let scheduler = MainActorScheduler()
        #expect(await mainQueueRecognised())
        let journal = Journal()
        scheduler.schedule {
            journal.write("outer begins")
            scheduler.schedule { journal.write("inner") }
            journal.write("outer ends")
        }
        #expect(journal.lines == ["outer begins", "outer ends"])
        #expect(await mainActorTurns(until: { journal.lines.count == 3 }))
        #expect(journal.lines == ["outer begins", "outer ends", "inner"])
    }

    @Test @MainActor func aDisposedActionDoesNotRun() async {
        let scheduler = MainActorScheduler()
        let runs = Counter()
        let flushed = Counter()
        let disposable = DispatchQueue.global().sync { scheduler.schedule { runs.increment() } }
        DispatchQueue.global().sync { _ = scheduler.schedule { flushed.increment() } }
        #expect(disposable != nil)
        disposable?.dispose()
        #expect(await mainActorTurns(until: { flushed.value == 1 }))
        #expect(runs.value == 0)
    }

    @Test @MainActor func aTimedActionRunsOnTheMainActorNoEarlierThanItsDueTime() async {
        let scheduler = MainActorScheduler()
        let due = scheduler.now + .milliseconds(20)
        let ranAt = Mutex<SchedulerTime?>(nil)
        _ = isOnMainQueue()
        let onMain = Counter()
        scheduler.schedule(at: due) {
            if isOnMainQueue() { onMain.increment() }
            ranAt.withLock { $0 = scheduler.now }
        }
        #expect(ranAt.withLock { $0 } == nil)
        #expect(await mainActorTurns(until: { ranAt.withLock { $0 } != nil }))
        #expect(ranAt.withLock { $0 }.map { $0 >= due } == true)
        #expect(onMain.value == 1)
    }

    @Test @MainActor func aRepeatingActionRepeatsOnTheMainActorUntilDisposed() async {
        let scheduler = MainActorScheduler()
        let ticks = Counter()
        _ = isOnMainQueue()
        let offMain = Counter()
        let disposable = scheduler.schedule(after: .milliseconds(1), every: .milliseconds(2)) {
            if !isOnMainQueue() { offMain.increment() }
            ticks.increment()
        }
        #expect(await mainActorTurns(until: { ticks.value >= 3 }))
        disposable?.dispose()
        let afterDisposal = ticks.value
        // The timer fires on the main queue, where this test runs: no tick can be under way while disposing.
        let later = ContinuousClock.now + .milliseconds(20)
        #expect(await mainActorTurns(until: { ContinuousClock.now >= later }))
        #expect(ticks.value == afterDisposal)
        #expect(offMain.value == 0)
    }
}
