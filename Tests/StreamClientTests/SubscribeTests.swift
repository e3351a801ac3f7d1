import EventLog
import Foundation
import Reactive
import StreamProtocol
import Testing

@testable import StreamClient

@Suite struct SubscribeTests {
    @Test func aSubscriberGetsTheHistoryThenLiveEventsPublishedFromAnotherConnection() async throws {
        let fixture = try await ServerFixture()
        let publisher = try await fixture.connect()
        let subscriber = try await fixture.connect()
        for index in 1...3 { _ = try await publisher.append(bytes("e\(index)"), to: "s") }
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = subscriber.subscribe("s", from: .all).start(collector.observer)
        #expect(await collector.waitForValues(3))
        for index in 4...5 { _ = try await publisher.append(bytes("e\(index)"), to: "s") }
        #expect(await collector.waitForValues(5))
        #expect(collector.values.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(collector.values.map { String(decoding: $0.payload, as: UTF8.self) } == ["e1", "e2", "e3", "e4", "e5"])
        #expect(collector.values.allSatisfy { $0.timestamp > 0 })
        start.dispose()
        publisher.close()
        subscriber.close()
        await fixture.tearDown()
    }

    @Test func manyEventsArriveInOrderThroughCreditFlowControl() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let total = 5000
        for chunk in stride(from: 0, to: total, by: 500) {
            _ = try await connection.append(contentsOf: (chunk..<chunk + 500).map { bytes("\($0)") }, to: "big")
        }
        let collector = EventCollector<StoredEvent, StreamClientError>()
        // A credit far below the total: the stream only completes if credit is refilled as events arrive.
        let start = connection.subscribe("big", from: .all, credit: 64).start(collector.observer)
        #expect(await collector.waitForValues(total))
        #expect(collector.values.map(\.sequence) == (1...UInt64(total)).map { $0 })
        start.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func disposingASubscriptionUnsubscribesOnTheServer() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(bytes("a"), to: "s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = connection.subscribe("s", from: .all).start(collector.observer)
        #expect(await collector.waitForValues(1))
        #expect(try await connection.streamInfo("s").subscribers == 1)
        start.dispose()
        #expect(collector.terminal.map { if case .interrupted = $0 { true } else { false } } == true)
        #expect(try await waitForSubscribers(0, of: "s", on: connection))
        _ = try await connection.append(bytes("b"), to: "s")
        try await connection.ping()
        #expect(collector.values.count == 1)
        connection.close()
        await fixture.tearDown()
    }

    @Test func subscribingToANewOnlyPositionSkipsTheHistory() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(bytes("old"), to: "s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = connection.subscribe("s", from: .newOnly).start(collector.observer)
        // Wait for the subscription to be registered before publishing.
        #expect(try await waitForSubscribers(1, of: "s", on: connection))
        _ = try await connection.append(bytes("new"), to: "s")
        #expect(await collector.waitForValues(1))
        #expect(collector.values.map(\.sequence) == [2])
        start.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func aSubscriptionFailsWhenTheConnectionCloses() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        try await connection.createStream("s")
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = connection.subscribe("s", from: .all).start(collector.observer)
        connection.close()
        #expect(await collector.wait { $0.last?.error != nil })
        #expect(collector.terminal?.error?.isConnectionLoss == true)
        start.dispose()
        await fixture.tearDown()
    }

    @Test func deletingTheStreamEndsItsSubscriptionAndItsAsyncSequence() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(bytes("a"), to: "s")
        // The loop has the history before the stream is deleted (the daemon counts a subscriber
        // before it sends the history, and a deletion first ends what it has not sent).
        let (received, counted) = AsyncStream.makeStream(of: Int.self)
        let task = Task { () async -> (Int, StreamClientError?) in
            defer { counted.finish() }  // so that the wait below ends should the loop end early
            var seen = 0
            do {
                for try await _ in connection.events(in: "s", from: .all) {
                    seen += 1
                    counted.yield(seen)
                }
            } catch {
                return (seen, error as? StreamClientError)
            }
            return (seen, nil)
        }
        for await seen in received where seen == 1 { break }
        #expect(try await connection.streamInfo("s").subscribers == 1)
        try await connection.deleteStream("s")
        let (seen, error) = await task.value
        #expect(seen == 1)
        guard case .subscriptionEnded(reason: .streamDeleted, _) = error else {
            Issue.record("expected the subscription to end as deleted, got \(String(describing: error))")
            return
        }
        connection.close()
        await fixture.tearDown()
    }

    @Test func aStoredCompletionCompletesTheSubscription() async throws {
        let fixture = try await ServerFixture { log in
            _ = try log.createStream("done")
            _ = try log.append(bytes("a"), to: "done")
            _ = try log.appendCompleted(to: "done")
        }
        let connection = try await fixture.connect()
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = connection.subscribe("done", from: .all).start(collector.observer)
        #expect(await collector.wait { $0.last?.isTerminating == true })
        #expect(collector.values.count == 1)
        if case .completed = collector.terminal {} else { Issue.record("expected completion, got \(collector.events)") }
        start.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func aStoredFailureFailsTheSubscriptionWithItsMessage() async throws {
        let fixture = try await ServerFixture { log in
            _ = try log.createStream("bad")
            _ = try log.appendFailed(to: "bad", message: "sensor broke")
        }
        let connection = try await fixture.connect()
        let collector = EventCollector<StoredEvent, StreamClientError>()
        let start = connection.subscribe("bad", from: .all).start(collector.observer)
        #expect(await collector.wait { $0.last?.isTerminating == true })
        #expect(collector.terminal?.error == .streamFailed("sensor broke"))
        start.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func typedValuesRoundTripThroughACodec() async throws {
        struct Order: Codable, Sendable, Equatable {
            var id: Int
            var item: String
        }
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let orders = [Order(id: 1, item: "tea"), Order(id: 2, item: "cake")]
        for order in orders { _ = try await connection.append(value: order, to: "orders") }
        _ = try await connection.append(value: Order(id: 3, item: "jam"), to: "binary", codec: BinaryEventCodec())
        let collector = EventCollector<Order, StreamClientError>()
        let start = connection.subscribe("orders", as: Order.self, from: .all).start(collector.observer)
        #expect(await collector.waitForValues(2))
        #expect(collector.values == orders)
        let binary = EventCollector<Order, StreamClientError>()
        let binaryStart = connection.subscribe("binary", as: Order.self, from: .all, codec: BinaryEventCodec()).start(binary.observer)
        #expect(await binary.waitForValues(1))
        #expect(binary.values == [Order(id: 3, item: "jam")])
        start.dispose()
        binaryStart.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func aPayloadThatDoesNotDecodeFailsTheTypedSubscription() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(bytes("not json"), to: "s")
        let collector = EventCollector<Int, StreamClientError>()
        let start = connection.subscribe("s", as: Int.self, from: .all).start(collector.observer)
        #expect(await collector.wait { $0.last?.error != nil })
        if case .codec = collector.terminal?.error {} else { Issue.record("expected a codec error, got \(collector.events)") }
        start.dispose()
        connection.close()
        await fixture.tearDown()
    }

    @Test func theAsyncSequenceDeliversEventsAndCancellingTheTaskUnsubscribes() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(contentsOf: [bytes("1"), bytes("2"), bytes("3")], to: "s")
        var seen: [UInt64] = []
        for try await event in connection.events(in: "s", from: .all) {
            seen.append(event.sequence)
            if seen.count == 3 { break }
        }
        #expect(seen == [1, 2, 3])
        // The loop says how many it has had, so the task is cancelled only once it waits past the history.
        let (received, counted) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { counted.finish() }  // so that the wait below ends should the loop end early
            var count = 0
            for try await _ in connection.events(in: "s", from: .all) {
                count += 1
                counted.yield(count)
            }
            return count
        }
        for await count in received where count == 3 { break }
        #expect(try await waitForSubscribers(1, of: "s", on: connection))
        task.cancel()
        let count = try await task.value
        #expect(count == 3)
        #expect(try await waitForSubscribers(0, of: "s", on: connection))
        connection.close()
        await fixture.tearDown()
    }
}
