import Dispatch
import Foundation
import Reactive
import Synchronization
import Testing
@testable import EventLog

/// `PersistentReplaySubject.append` returns after its observers have the value, and a start after it
/// replays it before returning, with no `flush()` anywhere: what an in-process `ReplaySubject` does.
@Suite struct PersistentReadYourWritesTests {
    @Test func everyObserverHasTheValueWhenAppendReturns() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "numbers")
        let first = StreamRecorder<Int>()
        let second = StreamRecorder<Int>()
        subject.observe(first.observer)
        subject.producer.map { $0 * 10 }.start(second.observer)
        var late: [Int] = []
        for value in 1...300 {
            try subject.append(value)
            if first.values.last != value || second.values.last != value * 10 { late.append(value) }
        }
        #expect(late.isEmpty, "values not yet delivered when append returned: \(late.prefix(10))")
        subject.flush()
        #expect(first.values == Array(1...300))
        #expect(second.values == (1...300).map { $0 * 10 })
    }

    @Test func aStartAfterAppendReplaysTheValueBeforeReturning() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        var missed: [Int] = []
        for round in 0..<100 {
            let prices = try PersistentReplaySubject<Double>(
                log: log, stream: "prices-\(round)", policy: StreamPolicy(capacity: .last(100)))
            try prices.append(101.5)
            let seen = StreamRecorder<Double>()
            prices.producer.map { $0 * 2 }.start(seen.observer)
            if seen.values != [203.0] { missed.append(round) }
            try prices.append(102)
            if seen.values != [203.0, 204.0] { missed.append(round) }
        }
        #expect(missed.isEmpty, "rounds whose start or append did not deliver at once: \(missed.prefix(10))")
    }

    @Test func appendDeliversOtherWritersEarlierCommitsFirstInOrderAndOnce() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "numbers")
        let seen = StreamRecorder<Int>()
        subject.observe(seen.observer)
        for round in 0..<50 {
            // Another writer of the stream in this process: its commits reach the subject from the feed,
            // which may not have delivered them yet when the subject's own append returns.
            for offset in 1...3 { try log.append(JSONEventCodec().encode(round * 4 + offset), to: "numbers") }
            try subject.append(round * 4 + 4)
            #expect(seen.values.last == round * 4 + 4)
        }
        subject.flush()
        #expect(seen.values == Array(1...200))
    }

    @Test func concurrentAppendersEachSeeTheirOwnValueDeliveredAndNothingIsDoubled() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "numbers")
        let seen = StreamRecorder<Int>()
        subject.observe(seen.observer)
        let late = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<50 {
                let value = thread * 1000 + index
                guard (try? subject.append(value)) != nil else { return late.withLock { $0.append(-1) } }
                if !seen.values.contains(value) { late.withLock { $0.append(value) } }
            }
        }
        #expect(late.withLock { $0 }.isEmpty)
        subject.flush()
        #expect(seen.values.count == 200)
        #expect(Set(seen.values).count == 200)
        for thread in 0..<4 {
            let own = seen.values.filter { $0 / 1000 == thread }
            #expect(own == own.sorted())
        }
    }

    @Test func terminalAppendsHaveEndedTheObserversWhenTheyReturn() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let completing = try PersistentReplaySubject<Int>(log: log, stream: "completing")
        let completed = StreamRecorder<Int>()
        completing.observe(completed.observer)
        try completing.append(1)
        try completing.appendCompleted()
        #expect(completed.events.count == 2)
        #expect(completed.events.last?.isCompleted == true)

        let failing = try PersistentReplaySubject<Int>(log: log, stream: "failing")
        let failed = StreamRecorder<Int>()
        failing.observe(failed.observer)
        try failing.appendFailed(StreamFailure("sensor lost"))
        #expect(failed.events.count == 1)
        #expect(failed.events.first?.error?.message == "sensor lost")
    }

    @Test func anAppendFromInsideAnObserverIsDeliveredRightAfterTheCurrentEvent() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "numbers")
        let seen = StreamRecorder<Int>()
        let whenInnerReturned = Mutex<[Int]?>(nil)
        subject.observe(seen.observer)
        subject.observeValues { value in
            guard value == 1 else { return }
            _ = try? subject.append(2)                  // the same thread holds the gate: no waiting
            whenInnerReturned.withLock { $0 = seen.values }
        }
        try subject.append(1)
        // The inner append returned before its value was delivered (the current event was still on its
        // way); the outer one returns after both.
        #expect(whenInnerReturned.withLock { $0 } == [1])
        #expect(seen.values == [1, 2])
    }

    @Test func anAppendFromTheLogsNotificationQueueDeliversBeforeReturning() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let source = try PersistentReplaySubject<Int>(log: log, stream: "source")
        let target = try PersistentReplaySubject<Int>(log: log, stream: "target")
        let seen = StreamRecorder<Int>()
        target.observe(seen.observer)
        let delivered = Mutex<[Bool]>([])
        source.observeValues { value in
            _ = try? target.append(value)
            delivered.withLock { $0.append(seen.values.last == value) }
        }
        // Another writer's commits reach `source` on the log's notification queue; its observer appends
        // to `target` from there.
        for value in 1...20 { try log.append(JSONEventCodec().encode(value), to: "source") }
        source.flush()
        #expect(delivered.withLock { $0 } == Array(repeating: true, count: 20))
        #expect(seen.values == Array(1...20))
    }
}
