import Synchronization
import Testing
@testable import Reactive

/// Records labels in the order actions run, for asserting on scheduling order.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    var lines: [String] { entries.withLock { $0 } }
    func write(_ line: String) { entries.withLock { $0.append(line) } }
}

@Suite struct TestSchedulerTests {
    @Test func theClockStartsAtZeroAndMovesOnlyWhenAdvanced() {
        let scheduler = TestScheduler()
        #expect(scheduler.now == .zero)
        scheduler.advance(by: .seconds(3))
        #expect(scheduler.now == .zero + .seconds(3))
        scheduler.advance(to: .zero + .seconds(1))
        #expect(scheduler.now == .zero + .seconds(3))
    }

    @Test func anImmediateActionWaitsForTheNextAdvance() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.schedule { runs.increment() }
        #expect(runs.value == 0)
        scheduler.advance()
        #expect(runs.value == 1)
    }

    @Test func actionsRunByDueTimeThenByTheOrderTheyWereScheduled() {
        let scheduler = TestScheduler()
        let journal = Journal()
        scheduler.schedule(after: .seconds(2)) { journal.write("b1") }
        scheduler.schedule(after: .seconds(1)) { journal.write("a") }
        scheduler.schedule(after: .seconds(2)) { journal.write("b2") }
        scheduler.schedule(after: .seconds(3)) { journal.write("c") }
        scheduler.advance(by: .seconds(2))
        #expect(journal.lines == ["a", "b1", "b2"])
        scheduler.advance(by: .seconds(1))
        #expect(journal.lines == ["a", "b1", "b2", "c"])
    }

    @Test func nowReadsTheDueTimeOfTheRunningAction() {
        let scheduler = TestScheduler()
        let seen = Mutex<[SchedulerTime]>([])
        scheduler.schedule(after: .seconds(1)) { seen.withLock { $0.append(scheduler.now) } }
        scheduler.schedule(after: .seconds(4)) { seen.withLock { $0.append(scheduler.now) } }
        scheduler.advance(by: .seconds(10))
        #expect(seen.withLock { $0 } == [.zero + .seconds(1), .zero + .seconds(4)])
        #expect(scheduler.now == .zero + .seconds(10))
    }

    @Test func anActionScheduledByAnotherRunsInTheSameAdvanceIfItFallsDue() {
        let scheduler = TestScheduler()
        let journal = Journal()
        scheduler.schedule(after: .seconds(1)) {
            journal.write("outer")
            scheduler.schedule(after: .seconds(1)) { journal.write("inner") }
            scheduler.schedule(after: .seconds(5)) { journal.write("late") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(journal.lines == ["outer", "inner"])
    }

    @Test func aDisposedActionNeverRuns() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let disposable = scheduler.schedule(after: .seconds(1)) { runs.increment() }
        #expect(scheduler.pendingActionCount == 1)
        disposable?.dispose()
        #expect(scheduler.isIdle)
        scheduler.run()
        #expect(runs.value == 0)
    }

    @Test func aRepeatingActionRunsEveryIntervalUntilDisposed() {
        let scheduler = TestScheduler()
        let seen = Mutex<[SchedulerTime]>([])
        let disposable = scheduler.schedule(after: .seconds(1), every: .seconds(2)) {
            seen.withLock { $0.append(scheduler.now) }
        }
        scheduler.advance(by: .seconds(6))
        #expect(seen.withLock { $0 } == [1, 3, 5].map { .zero + .seconds($0) })
        disposable?.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(seen.withLock { $0 }.count == 3)
        #expect(scheduler.isIdle)
    }

    @Test func runRunsEverythingAndLeavesTheClockAtTheLastAction() {
        let scheduler = TestScheduler()
        let runs = Counter()
        scheduler.schedule(after: .seconds(5)) { runs.increment() }
        scheduler.schedule(after: .seconds(9)) { runs.increment() }
        scheduler.run()
        #expect(runs.value == 2)
        #expect(scheduler.now == .zero + .seconds(9))
    }
}
