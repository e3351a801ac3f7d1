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
        try await writer.publish(Reading(celsius: 1))
        try await writer.publish(Reading(celsius: 2))
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

    @Test func theSharedSignalFollowsTheStreamAndEndsOnALocalCompletion() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        try await subject.connection.createStream("n")
        let collector = EventCollector<Int, StreamFailure>()
        subject.signal.observe(collector.observer)
        try await waitForSubscribers(1, of: "n", on: subject.connection)
        subject.send(value: 7)
        #expect(await collector.waitForValues(1))
        subject.sendCompleted()
        #expect(await collector.wait { $0.last.map { if case .completed = $0 { true } else { false } } == true })
        #expect(collector.values == [7])
        subject.connection.close()
        await fixture.tearDown()
    }

    @Test func aLostConnectionFailsObserversWithAStorageFailure() async throws {
        let fixture = try await ServerFixture()
        let subject = RemoteReplaySubject<Int>(connection: try await fixture.connect(), stream: "n")
        try await subject.connection.createStream("n")
        let collector = EventCollector<Int, StreamFailure>()
        subject.observe(collector.observer)
        subject.connection.close()
        #expect(await collector.wait { $0.last?.error != nil })
        #expect(collector.terminal?.error?.origin == .storage)
        await fixture.tearDown()
    }
}
