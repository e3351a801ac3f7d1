import EventLog
import Reactive
import Testing

@testable import StreamClient

@Suite struct RemoteReplaySubjectTests {
    struct Reading: Codable, Sendable, Equatable {
        var celsius: Double
    }

    @Test func aLateObserverGetsTheHistoryThenLiveValues() async throws {
        let fixture = try await ServerFixture()
        let writer = RemoteReplaySubject<Reading>(connection: try await fixture.connect(), stream: "temps")
        try await writer.append(Reading(celsius: 1))
        try await writer.append(Reading(celsius: 2))
        // Another process's view of the same stream.
        let reader = RemoteReplaySubject<Reading>(connection: try await fixture.connect(), stream: "temps")
        let late = EventCollector<Reading, StreamFailure>()
        let observation = reader.observe(late.observer)
        #expect(await late.waitForValues(2))
        writer.send(value: Reading(celsius: 3))
        #expect(await late.waitForValues(3))
        #expect(late.values == [Reading(celsius: 1), Reading(celsius: 2), Reading(celsius: 3)])
        // A second late observer gets its own replay, from the start.
        let later = EventCollector<Reading, StreamFailure>()
        let second = reader.observe(later.observer)
        #expect(await later.waitForValues(3))
        #expect(later.values == late.values)
        observation.dispose()
        second.dispose()
        writer.connection.close()
        reader.connection.close()
        await fixture.tearDown()
    }

    @Test func aMulticastConnectionOverARemoteSubjectReplaysToLateObserversInAnotherProcess() async throws {
        let fixture = try await ServerFixture()
        let shared = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "ticks")
        // The one-line change: `multicast(ReplaySubject())` becomes `multicast(RemoteReplaySubject(…))`.
        let connection = SignalProducer<Int, StreamFailure>([1, 2, 3]).multicast(shared)
        let early = EventCollector<Int, StreamFailure>()
        connection.signal.observe(early.observer)
        _ = connection.connect()
        #expect(await early.waitForValues(3))
        // The source's completion is held until the values it followed have come back from the daemon.
        #expect(await early.wait { $0.last.map { if case .completed = $0 { true } else { false } } == true })
        let elsewhere = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "ticks")
        let late = EventCollector<Int, StreamFailure>()
        elsewhere.producer.start(late.observer)
        #expect(await late.waitForValues(3))
        #expect(early.values == [1, 2, 3])
        #expect(late.values == [1, 2, 3])
        shared.connection.close()
        elsewhere.connection.close()
        await fixture.tearDown()
    }

    @Test func eachStartOfTheIndependentProducerIsReplayedByTheDaemon() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<String>(connection: try await fixture.connect(), stream: "words")
        try await subject.append("a")
        try await subject.append("b")
        let first = EventCollector<String, StreamFailure>()
        let second = EventCollector<String, StreamFailure>()
        let one = subject.independentProducer.start(first.observer)
        let two = subject.independentProducer.start(second.observer)
        #expect(await first.waitForValues(2))
        #expect(await second.waitForValues(2))
        #expect(try await subject.connection.streamInfo("words").subscribers == 2)
        #expect(first.values == ["a", "b"] && second.values == ["a", "b"])
        one.dispose()
        two.dispose()
        subject.connection.close()
        await fixture.tearDown()
    }

    @Test func valuesSentFromOneThreadArriveInOrder() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        for value in 1...100 { subject.send(value: value) }
        let collector = EventCollector<Int, StreamFailure>()
        let observation = subject.producer.start(collector.observer)
        #expect(await collector.waitForValues(100))
        #expect(collector.values == Array(1...100))
        observation.dispose()
        subject.connection.close()
        await fixture.tearDown()
    }

    @Test func aCompletionIsStoredAndEndsObserversOfEveryConnectionAfterTheValuesBeforeIt() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        let collector = EventCollector<Int, StreamFailure>()
        subject.signal.observe(collector.observer)
        try await waitForSubscribers(1, of: "n", on: subject.connection)
        subject.send(value: 7)
        subject.sendCompleted()
        #expect(await collector.wait { $0.last.map { if case .completed = $0 { true } else { false } } == true })
        #expect(collector.values == [7])
        // Another connection, later: the stored history ends with the completion too.
        let other = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        let late = EventCollector<Int, StreamFailure>()
        other.observe(late.observer)
        #expect(await late.wait { $0.last.map { if case .completed = $0 { true } else { false } } == true })
        #expect(late.values == [7])
        // The stream takes nothing more.
        await #expect(throws: StreamClientError.self) { try await other.append(8) }
        subject.connection.close()
        other.connection.close()
        await fixture.tearDown()
    }

    @Test func aFailureSentToTheSubjectReachesObserversElsewhereWithItsMessage() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "f")
        subject.send(value: 1)
        subject.send(error: StreamFailure("sensor lost"))
        let other = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "f")
        let late = EventCollector<Int, StreamFailure>()
        other.observe(late.observer)
        #expect(await late.wait { $0.last?.error != nil })
        #expect(late.values == [1])
        #expect(late.terminal?.error?.message == "sensor lost")
        subject.connection.close()
        other.connection.close()
        await fixture.tearDown()
    }

    @Test func anInterruptionEndsOnlyThisProcesssObserversAndTheStreamStaysOpen() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "i")
        let collector = EventCollector<Int, StreamFailure>()
        subject.signal.observe(collector.observer)
        try await waitForSubscribers(1, of: "i", on: subject.connection)
        subject.send(value: 1)
        subject.sendInterrupted()
        #expect(await collector.wait { $0.last.map { if case .interrupted = $0 { true } else { false } } == true })
        #expect(collector.values == [1])
        #expect(try await subject.connection.append(bytes("2"), to: "i").sequence == 2)
        subject.connection.close()
        await fixture.tearDown()
    }

    @Test func aLostConnectionFailsObserversWithAStorageFailure() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        let collector = EventCollector<Int, StreamFailure>()
        subject.observe(collector.observer)
        subject.connection.close()
        #expect(await collector.wait { $0.last?.error != nil })
        #expect(collector.terminal?.error?.origin == .storage)
        await fixture.tearDown()
    }
}
