import Reactive
import Testing

@testable import StreamClient

@Suite struct ResumingSubscriptionTests {
    @Test func aResumingSubscriberContinuesAfterTheDaemonRestartsWithNoGapAndNoDuplicate() async throws {
        let fixture = try await ServerFixture()
        let subscriber = try await fixture.connect()
        let publisher = try await fixture.connect()
        _ = try await publisher.append(contentsOf: (1...5).map { bytes("\($0)") }, to: "s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = subscriber.subscribe("s", from: .all, resume: true).start(collector.observer)
        #expect(await collector.waitForValues(5))

        await fixture.stop()
        publisher.close()
        try await fixture.restart()
        let again = try await fixture.connect()
        _ = try await again.append(contentsOf: (6...10).map { bytes("\($0)") }, to: "s")

        #expect(await collector.waitForValues(10))
        try await again.ping()
        #expect(collector.values.map(\.sequence) == Array(1...10))
        #expect(collector.terminal == nil)
        start.dispose()
        again.close()
        subscriber.close()
        await fixture.tearDown()
    }

    @Test func aResumingSubscriberSurvivesAGracefulShutdownOfTheDaemon() async throws {
        let fixture = try await ServerFixture()
        let subscriber = try await fixture.connect()
        _ = try await subscriber.append(bytes("1"), to: "s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = subscriber.subscribe("s", from: .all, resume: true).start(collector.observer)
        #expect(await collector.waitForValues(1))
        await fixture.stop(gracefully: true)
        try await fixture.restart()
        let again = try await fixture.connect()
        _ = try await again.append(bytes("2"), to: "s")
        #expect(await collector.waitForValues(2))
        #expect(collector.values.map(\.sequence) == [1, 2])
        #expect(collector.terminal == nil)
        start.dispose()
        again.close()
        subscriber.close()
        await fixture.tearDown()
    }

    @Test func aNewOnlySubscriberThatSawNothingResumesWhereItStartedAndMissesNothing() async throws {
        let fixture = try await ServerFixture()
        let subscriber = try await fixture.connect()
        _ = try await subscriber.append(bytes("old"), to: "s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        // A long first wait, so the publish below lands while the subscriber is still away.
        let slow = ReconnectPolicy(initialDelay: .milliseconds(500))
        let start = subscriber.subscribe("s", from: .newOnly, resume: true, reconnect: slow).start(collector.observer)
        #expect(try await waitForSubscribers(1, of: "s", on: subscriber))
        await fixture.stop()
        try await fixture.restart()
        let again = try await fixture.connect()
        _ = try await again.append(bytes("while away"), to: "s")
        #expect(await collector.waitForValues(1))
        #expect(collector.values.map(\.sequence) == [2])
        start.dispose()
        again.close()
        subscriber.close()
        await fixture.tearDown()
    }

    @Test func aResumingSubscriberGivesUpAfterItsBoundedAttempts() async throws {
        let fixture = try await ServerFixture()
        let subscriber = try await fixture.connect()
        try await subscriber.createStream("s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let quick = ReconnectPolicy(maximumAttempts: 3, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(10))
        let start = subscriber.subscribe("s", from: .all, resume: true, reconnect: quick).start(collector.observer)
        #expect(try await waitForSubscribers(1, of: "s", on: subscriber))
        await fixture.stop()
        #expect(await collector.wait { $0.last?.error != nil })
        guard case .daemonNotRunning(let path, _) = collector.terminal?.error else {
            Issue.record("expected the last connection error, got \(collector.events)")
            return
        }
        #expect(path == fixture.socketPath)
        start.dispose()
        await fixture.tearDown()
    }

    @Test func aSubscriptionWithoutResumeFailsWhenTheDaemonStops() async throws {
        let fixture = try await ServerFixture()
        let subscriber = try await fixture.connect()
        try await subscriber.createStream("s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = subscriber.subscribe("s", from: .all).start(collector.observer)
        try await waitForSubscribers(1, of: "s", on: subscriber)
        await fixture.stop()
        #expect(await collector.wait { $0.last?.error != nil })
        #expect(collector.terminal?.error?.isConnectionLoss == true)
        start.dispose()
        await fixture.tearDown()
    }
}
