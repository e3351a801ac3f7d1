import Foundation
import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite(.serialized) struct SubscriptionTests {
    /// A hub with `count` events already in stream "s", and a publisher connection.
    private func prepared(_ count: Int, limits: (inout ServerLimits) -> Void = { _ in }) throws -> (StreamHub, TemporaryLog, TestClient) {
        let (hub, storage) = try makeHub(limits)
        let publisher = try TestClient.connected(to: hub)
        try storage.log.ensureStream("s")
        for index in 1...max(1, count) where count > 0 { try publisher.publish(payload(index), to: "s") }
        return (hub, storage, publisher)
    }

    private func sequences(_ events: [WireEvent]) -> [UInt64] { events.map(\.sequence) }

    @Test(arguments: [
        (StartPosition.streamDefault, UInt64(1)), (.all, 1), (.last(2), 4), (.from(sequence: 3), 3), (.newOnly, 6),
    ])
    func eachStartPositionDeliversItsHistoryThenLiveEvents(start: StartPosition, first: UInt64) throws {
        let (hub, storage, publisher) = try prepared(5)
        let subscriber = try TestClient.connected(to: hub)
        let reply = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: start, credit: 1_000)))
        #expect(reply == .subscribed(subscriptionID: 1, nextSequence: first))
        for index in 6...8 { try publisher.publish(payload(index), to: "s") }
        let events = try subscriber.waitForEvents(of: 1, count: Int(8 - first + 1))
        #expect(sequences(events) == Array(first...8))
        #expect(events.map(\.payload) == (Int(first)...8).map(payload))
        #expect(events.allSatisfy { $0.kind == .value && $0.timestamp > 0 })
        _ = storage
    }

    @Test func aSinceTimeStartDeliversTheEventsAtOrAfterThatTime() throws {
        let (hub, storage, publisher) = try prepared(3)
        var third: Int64 = 0
        try storage.log.read("s", from: .from(sequence: 3)) { event in
            third = event.timestamp
            return false
        }
        try publisher.publish(payload(4), to: "s")
        let subscriber = try TestClient.connected(to: hub)
        let reply = try subscriber.request(.subscribe(.init(subscriptionID: 2, stream: "s", start: .since(microseconds: third), credit: 100)))
        guard case let .subscribed(_, next) = reply else {
            Issue.record("not subscribed: \(reply)")
            return
        }
        #expect(next <= 3)
        let events = try subscriber.waitForEvents(of: 2, count: Int(4 - next + 1))
        #expect(sequences(events) == Array(next...4))
        #expect(events.allSatisfy { $0.sequence < 3 || $0.timestamp >= third })
    }

    @Test func subscribedIsTheFirstFrameOfASubscriptionAndEventsCarryItsRequestID() throws {
        let (hub, storage, _) = try prepared(3)
        let subscriber = try TestClient.connected(to: hub)
        let id = try subscriber.send(.subscribe(.init(subscriptionID: 9, stream: "s", credit: 10)))
        _ = try subscriber.waitForEvents(of: 9, count: 3)
        let frames = subscriber.collector.received.filter { $0.requestID == id }
        #expect(frames.first?.message == .subscribed(subscriptionID: 9, nextSequence: 1))
        #expect(frames.dropFirst().allSatisfy { $0.message.isEvents })
        _ = storage
    }

    @Test func historyAndLiveHandOverWithoutGapOrDuplicateUnderConcurrentPublishing() async throws {
        let (hub, storage, publisher) = try prepared(200)
        let subscriber = try TestClient.connected(to: hub)
        async let publishing: Void = {
            for index in 201...600 { try publisher.publish(payload(index), to: "s") }
        }()
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 10_000)))
        try await publishing
        let events = try subscriber.waitForEvents(of: 1, count: 600)
        #expect(sequences(events) == Array(1...600))
        _ = storage
    }

    @Test func manyPublishersAndSubscribersAtOnceEverySubscriberSeesEveryEventOnceInOrder() async throws {
        let (hub, storage, _) = try prepared(0)
        let subscribers = try (0..<3).map { _ in try TestClient.connected(to: hub) }
        for (index, subscriber) in subscribers.enumerated() {
            _ = try subscriber.request(.subscribe(.init(subscriptionID: UInt32(index), stream: "s", start: .all, credit: 500)))
        }
        let publishers = try (0..<4).map { _ in try TestClient.connected(to: hub) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, publisher) in publishers.enumerated() {
                group.addTask {
                    for number in 0..<250 { try publisher.publish(payload(index * 1_000 + number), to: "s") }
                }
            }
            for (index, subscriber) in subscribers.enumerated() {
                group.addTask {
                    // Credit in steps, as a client draining its buffer would.
                    for _ in 0..<2 { try subscriber.send(.credit(subscriptionID: UInt32(index), credit: 250)) }
                }
            }
            try await group.waitForAll()
        }
        let published = Set((0..<4).flatMap { index in (0..<250).map { payload(index * 1_000 + $0) } })
        for (index, subscriber) in subscribers.enumerated() {
            let events = try subscriber.waitForEvents(of: UInt32(index), count: 1_000)
            #expect(sequences(events) == Array(1...1_000))
            #expect(Set(events.map(\.payload)) == published)
        }
        _ = storage
    }

    @Test func eventsFramesNeverCarryMoreThanTheCreditAndCreditsAddUp() throws {
        let (hub, storage, publisher) = try prepared(10)
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 3)))
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 3)) == [1, 2, 3])
        // With its credit spent, the subscription sends nothing more, history or live.
        try publisher.publish(payload(11), to: "s")
        #expect(try subscriber.request(.ping(nonce: 1)) == .pong(nonce: 1))
        #expect(subscriber.events(of: 1).count == 3)
        try subscriber.send(.credit(subscriptionID: 1, credit: 2))
        try subscriber.send(.credit(subscriptionID: 1, credit: 2))
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 7)) == Array(1...7))
        try subscriber.send(.credit(subscriptionID: 1, credit: 100))
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 11)) == Array(1...11))
        let sizes = subscriber.collector.received.compactMap { frame -> Int? in
            if case let .events(_, events) = frame.message { return events.count }
            return nil
        }
        #expect(sizes.prefix(1) == [3])
        #expect(sizes.allSatisfy { $0 > 0 })
        _ = storage
    }

    /// A read of the log fills several frames when the credit allows: each stays within the frame
    /// limits, and together they are the credit's worth, in order.
    @Test func aCatchUpWithCreditToSpareFillsSeveralFramesEachWithinTheLimits() throws {
        let (hub, storage, _) = try prepared(2_000) { $0.maximumEventsPerFrame = 100 }
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 1_500)))
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 1_500)) == Array(1...1_500))
        let sizes = subscriber.collector.received.compactMap { frame -> Int? in
            if case let .events(_, events) = frame.message { return events.count }
            return nil
        }
        #expect(sizes.reduce(0, +) == 1_500, "no more than the credit")
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 100 }, "\(sizes)")
        _ = storage
    }

    @Test func aSubscriberOutOfCreditStaysBoundedWhileTenThousandEventsArriveAndThenGetsThemAllInOrder() throws {
        let (hub, storage, publisher) = try prepared(0) { $0.maximumBufferedEvents = 1024 }
        let subscriber = try TestClient.connected(to: hub)
        // Two credits: the subscription catches up, follows live, takes one more event and runs dry.
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 2)))
        let subscription = try #require(subscriber.session.subscription(1) as? Subscription)
        try publisher.publish(payload(0), to: "s")
        _ = try subscriber.waitForEvents(of: 1, count: 1)
        subscription.waitForDelivery()
        #expect(subscription.isAttached)
        var largest = 0
        for start in stride(from: 1, through: 10_000, by: 100) {
            let batch = (start..<start + 100).map { ClientMessage.PublishBatch.Entry(payload: payload($0)) }
            _ = try publisher.request(.publishBatch(.init(stream: "s", entries: batch)))
            largest = max(largest, subscription.bufferedEventCount)
        }
        #expect(largest > 0 && largest <= 1024)
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 2)) == [1, 2])
        try subscriber.send(.credit(subscriptionID: 1, credit: 9_999))
        let events = try subscriber.waitForEvents(of: 1, count: 10_001)
        #expect(sequences(events) == Array(1...10_001))
        #expect(events.last?.payload == payload(10_000))
        // Caught up, it follows live commits again.
        try subscriber.send(.credit(subscriptionID: 1, credit: 10))
        try publisher.publish(payload(10_001), to: "s")
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 10_002)).last == 10_002)
        _ = storage
    }

    @Test func aSubscriberThatNeverHadCreditHoldsNoEventsInMemory() throws {
        let (hub, storage, publisher) = try prepared(0)
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 0)))
        let subscription = try #require(subscriber.session.subscription(1) as? Subscription)
        for index in 1...300 {
            try publisher.publish(payload(index), to: "s")
            #expect(subscription.bufferedEventCount == 0)
        }
        try subscriber.send(.credit(subscriptionID: 1, credit: 300))
        #expect(sequences(try subscriber.waitForEvents(of: 1, count: 300)) == Array(1...300))
        _ = storage
    }

    @Test func aLiveSubscriberThatStopsGrantingCreditDropsItsBufferAndCatchesUpFromTheLog() throws {
        let (hub, storage, publisher) = try prepared(0) { $0.maximumBufferedEvents = 64 }
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 10)))
        let subscription = try #require(subscriber.session.subscription(1) as? Subscription)
        for index in 1...5 { try publisher.publish(payload(index), to: "s") }
        _ = try subscriber.waitForEvents(of: 1, count: 5)
        // Following live (had it caught up from the log, events 6...10 would be read, not buffered).
        subscription.waitForDelivery()
        #expect(subscription.isAttached)
        // 10 credits: events 6...10 go out, the 30 after them wait in the buffer (live events reach it
        // from the log's notification thread, so wait for them).
        for index in 6...40 { try publisher.publish(payload(index), to: "s") }
        let deadline = Date(timeIntervalSinceNow: 10)
        while subscription.bufferedEventCount < 30, Date() < deadline { usleep(1_000) }
        #expect(subscription.bufferedEventCount == 30)
        var largest = 0
        for index in 41...2_000 {
            try publisher.publish(payload(index), to: "s")
            largest = max(largest, subscription.bufferedEventCount)
        }
        _ = try subscriber.waitForEvents(of: 1, count: 10)
        #expect(largest <= 64)
        try subscriber.send(.credit(subscriptionID: 1, credit: 5_000))
        let events = try subscriber.waitForEvents(of: 1, count: 2_000)
        #expect(sequences(events) == Array(1...2_000))
        _ = storage
    }

    @Test func aSlowSubscriberDoesNotHoldBackAFastOne() throws {
        let (hub, storage, publisher) = try prepared(0)
        let slow = try TestClient.connected(to: hub)
        let fast = try TestClient.connected(to: hub)
        _ = try slow.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 1)))
        _ = try fast.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 100_000)))
        for index in 1...3_000 { try publisher.publish(payload(index), to: "s") }
        #expect(sequences(try fast.waitForEvents(of: 1, count: 3_000)) == Array(1...3_000))
        #expect(sequences(try slow.waitForEvents(of: 1, count: 1)) == [1])
        _ = storage
    }

    @Test func unsubscribeEndsTheSubscriptionWithReasonUnsubscribed() throws {
        let (hub, storage, publisher) = try prepared(2)
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 4, stream: "s", credit: 100)))
        _ = try subscriber.waitForEvents(of: 4, count: 2)
        let reply = try subscriber.request(.unsubscribe(subscriptionID: 4))
        #expect(reply == .subscriptionEnded(subscriptionID: 4, reason: .unsubscribed, message: "unsubscribed"))
        #expect(hub.subscriberCount(of: "s") == 0)
        try publisher.publish(payload(3), to: "s")
        #expect(try subscriber.request(.ping(nonce: 0)) == .pong(nonce: 0))
        #expect(subscriber.events(of: 4).count == 2)
        #expect(try subscriber.request(.unsubscribe(subscriptionID: 4)).errorCode == .subscriptionNotFound)
        // The id is free again.
        #expect(try subscriber.request(.subscribe(.init(subscriptionID: 4, stream: "s", start: .newOnly, credit: 1))) == .subscribed(subscriptionID: 4, nextSequence: 4))
        _ = storage
    }

    @Test func creditOrUnsubscribeOfAnUnknownIdIsSubscriptionNotFound() throws {
        let (hub, storage, _) = try prepared(1)
        let subscriber = try TestClient.connected(to: hub)
        let id = try subscriber.send(.credit(subscriptionID: 77, credit: 1))
        let frames = try #require(subscriber.collector.wait { $0.contains { $0.requestID == id } })
        #expect(frames.last?.message.errorCode == .subscriptionNotFound)
        #expect(try subscriber.request(.unsubscribe(subscriptionID: 77)).errorCode == .subscriptionNotFound)
        #expect(!subscriber.session.isClosed)
        _ = storage
    }

    @Test func aSecondSubscribeWithALiveIdIsSubscriptionIdInUse() throws {
        let (hub, storage, _) = try prepared(1)
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 0)))
        #expect(try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 0))).errorCode == .subscriptionIDInUse)
        #expect(subscriber.session.subscriptionCount == 1)
        _ = storage
    }

    @Test func subscriptionsBeyondTheConnectionLimitAreRefused() throws {
        let (hub, storage, _) = try prepared(1) { $0.maximumSubscriptionsPerConnection = 2 }
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 0)))
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 2, stream: "s", credit: 0)))
        #expect(try subscriber.request(.subscribe(.init(subscriptionID: 3, stream: "s", credit: 0))).errorCode == .limitExceeded)
        _ = storage
    }

    @Test func subscribingToAMissingStreamIsStreamNotFoundAndAnInvalidNameIsInvalidStreamName() throws {
        let (hub, storage, _) = try prepared(0)
        let subscriber = try TestClient.connected(to: hub)
        #expect(try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "nothing", credit: 1))).errorCode == .streamNotFound)
        #expect(try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "no way", credit: 1))).errorCode == .invalidStreamName)
        #expect(subscriber.session.subscriptionCount == 0)
        _ = storage
    }

    @Test func deletingAStreamEndsItsSubscriptionsWithReasonStreamDeleted() throws {
        let (hub, storage, publisher) = try prepared(1)
        let subscriber = try TestClient.connected(to: hub)
        let id = try subscriber.send(.subscribe(.init(subscriptionID: 5, stream: "s", credit: 10)))
        _ = try subscriber.waitForEvents(of: 5, count: 1)
        #expect(try publisher.request(.deleteStream(name: "s")) == .ok)
        let frames = try #require(subscriber.collector.wait { $0.contains { if case .subscriptionEnded = $0.message { true } else { false } } })
        let ended = try #require(frames.first { if case .subscriptionEnded = $0.message { true } else { false } })
        #expect(ended.requestID == id)
        guard case let .subscriptionEnded(subscriptionID, reason, _) = ended.message else { return }
        #expect(subscriptionID == 5 && reason == .streamDeleted)
        #expect(subscriber.session.subscriptionCount == 0)
        _ = storage
    }

    @Test func terminalEventsReachSubscribersWithTheirKind() throws {
        let (hub, storage, _) = try prepared(1)
        try storage.log.appendFailed(to: "s", message: "broken")
        let subscriber = try TestClient.connected(to: hub)
        _ = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", credit: 10)))
        let events = try subscriber.waitForEvents(of: 1, count: 2)
        #expect(events[1].kind == .failed && events[1].payload == Array("broken".utf8))
        _ = storage
    }
}
