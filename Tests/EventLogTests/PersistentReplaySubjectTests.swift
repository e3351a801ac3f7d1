import Dispatch
import Foundation
import Reactive
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// Collects a persistent stream's events for assertions.
final class StreamRecorder<Value: Sendable>: Sendable {
    private let state = Mutex<[Event<Value, StreamFailure>]>([])
    var events: [Event<Value, StreamFailure>] { state.withLock { $0 } }
    var values: [Value] { events.compactMap(\.value) }
    var observer: Observer<Value, StreamFailure> { Observer { [self] event in state.withLock { $0.append(event) } } }
}

struct Reading: Codable, Sendable, Equatable {
    var sensor: String
    var value: Int
}

@Suite struct PersistentReplaySubjectTests {
    @Test func aLateObserverGetsTheStoredHistoryThenLiveValues() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "numbers")
        for value in 1...3 { try subject.append(value) }
        let late = StreamRecorder<Int>()
        subject.observe(late.observer)
        try subject.append(4)
        subject.flush()
        #expect(late.values == [1, 2, 3, 4])
    }

    @Test func historySurvivesReopeningTheDatabase() throws {
        let directory = TemporaryDirectory()
        do {
            let log = try EventLog(path: directory.file())
            let subject = try PersistentReplaySubject<Reading>(log: log, stream: "readings", codec: BinaryEventCodec())
            for value in 0..<10 { try subject.append(Reading(sensor: "a", value: value)) }
            try subject.appendCompleted()
            log.close()
        }
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Reading>(log: log, stream: "readings", codec: BinaryEventCodec())
        let recorder = StreamRecorder<Reading>()
        subject.observe(recorder.observer)
        #expect(recorder.values.map(\.value) == Array(0..<10))
        #expect(recorder.events.last == .completed)
        #expect(throws: EventLogError.self) { try subject.append(Reading(sensor: "a", value: 99)) }
    }

    @Test func aStreamWithACapacityReplaysOnlyItsLastValues() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(
            log: log, stream: "recent", policy: StreamPolicy(capacity: .last(3)))
        for value in 1...10 { try subject.append(value) }
        subject.flush()
        let late = StreamRecorder<Int>()
        subject.observe(late.observer)
        #expect(late.values == [8, 9, 10])
        let last = try PersistentReplaySubject<Int>(log: log, stream: "latest", policy: StreamPolicy(capacity: .last))
        for value in 1...10 { try last.append(value) }
        last.flush()
        let lateToLast = StreamRecorder<Int>()
        last.observe(lateToLast.observer)
        #expect(lateToLast.values == [10])
    }

    @Test func aFailureIsStoredAsItsMessageAndReplayed() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "failing")
        try subject.append(1)
        subject.send(error: StreamFailure("sensor offline"))
        subject.flush()
        let late = StreamRecorder<Int>()
        subject.observe(late.observer)
        #expect(late.events == [.value(1), .failed(StreamFailure("sensor offline"))])
    }

    @Test func aValueThatNoLongerDecodesFailsTheObserverWithAStorageFailure() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        try log.ensureStream("mixed")
        _ = try log.append(Array("\"not a number\"".utf8), to: "mixed")
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "mixed")
        let recorder = StreamRecorder<Int>()
        subject.observe(recorder.observer)
        let failure = try #require(recorder.events.last?.error)
        #expect(failure.origin == .storage)
        #expect(failure.message.contains("event 1 does not decode as Int"))
    }

    @Test func valuesPublishedWhileObserversAttachAreSeenExactlyOnceInOrder() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "race")
        let publishers = 4
        let perPublisher = 150
        let recorders = Mutex<[StreamRecorder<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: publishers + 1) { worker in
            if worker == publishers {
                for _ in 0..<20 {
                    let recorder = StreamRecorder<Int>()
                    recorders.withLock { $0.append(recorder) }
                    subject.observe(recorder.observer)
                }
            } else {
                for index in 0..<perPublisher { _ = try? subject.append(worker * 1_000 + index) }
            }
        }
        subject.flush()
        let stored = try log.readAll("race").map { try JSONDecoder().decode(Int.self, from: Data($0.payload)) }
        #expect(stored.count == publishers * perPublisher)
        for recorder in recorders.withLock({ $0 }) {
            // Every observer sees the whole stream, in the log's order, each value once.
            #expect(recorder.values == stored)
        }
    }

    @Test func aStartThatEndsEarlyStopsReadingTheHistory() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "long")
        _ = try log.append(contentsOf: (1...5_000).map { Array("\($0)".utf8) }, to: "long")
        try subject.append(5_001)
        let decoded = Counter()
        let recorder = StreamRecorder<Int>()
        let ended = DispatchSemaphore(value: 0)
        subject.producer.on(value: { _ in decoded.increment() }).take(first: 3)
            .on(terminated: { ended.signal() })
            .start(recorder.observer)
        // The replay runs now, or, if the log's notification thread is delivering at that moment, right
        // after it on that thread (attaching never waits): wait for the end either way.
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(recorder.values == [1, 2, 3])
        #expect(decoded.value == 3)
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .acquiring) }
    func increment() { count.add(1, ordering: .acquiringAndReleasing) }
}
