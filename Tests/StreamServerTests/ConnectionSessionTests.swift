import Dispatch
import EventLog
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

@testable import StreamServer

@Suite(.serialized) struct ConnectionSessionTests {
    @Test func helloIsAnsweredWithWelcomeAnnouncingTheLimits() throws {
        let (hub, storage) = try makeHub { $0.maximumSubscriptionsPerConnection = 9 }
        let client = TestClient(hub: hub)
        let reply = try client.request(.hello(minVersion: 1, maxVersion: 3, clientName: "test"))
        #expect(reply == .welcome(version: 3, maxFrameLength: 16 * 1024 * 1024, maxSubscriptions: 9, serverName: "streamd"))
        #expect(try client.request(.ping(nonce: 42)) == .pong(nonce: 42))
        _ = storage
    }

    @Test func aRequestBeforeHelloGetsHandshakeRequiredAndClosesTheSession() throws {
        let (hub, storage) = try makeHub()
        let client = TestClient(hub: hub)
        #expect(try client.request(.ping(nonce: 1)).errorCode == .handshakeRequired)
        #expect(client.session.isClosed)
        try client.send(.hello(minVersion: 1, maxVersion: 1, clientName: "late"))
        #expect(client.collector.received.count == 1)
        _ = storage
    }

    @Test func helloWithoutACommonVersionGetsUnsupportedVersionAndCloses() throws {
        let (hub, storage) = try makeHub()
        let client = TestClient(hub: hub)
        #expect(try client.request(.hello(minVersion: 5, maxVersion: 6, clientName: "future")).errorCode == .unsupportedVersion)
        #expect(client.session.isClosed)
        _ = storage
    }

    @Test func aSubscriptionThatEndedBeforeItSettledIsNotKeptOnTheConnection() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        _ = try hub.publish(to: "s", expectedLastSequence: nil, [.init(messageID: nil, payload: payload(1))])
        _ = try hub.addConsumer("c", to: "s", config: ConsumerConfig())
        #expect(client.session.reserveSubscription(7) == nil)
        let consumer = try hub.servedConsumer("c", of: "s", holdingPlace: true)
        let member = ConsumerMember(
            id: 7, requestID: 1, consumer: consumer, send: { _, _ in }, sendFrame: { _ in }, canSend: { true }, onEnded: { _ in })
        // Ended (its stream deleted, say) between opening and settling.
        member.end(reason: .streamDeleted, message: "", replyTo: nil)
        #expect(!client.session.settleReservation(7, with: member))
        #expect(client.session.subscriptionCount == 0)
        #expect(client.session.reserveSubscription(7) == nil, "the id stayed taken")
        consumer.givePlaceBack()
        _ = storage
    }

    @Test func anUnknownMessageTypeGetsUnknownMessageAndCloses() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        client.session.receive(Frame(type: 0x7E, requestID: 99, body: []).encoded)
        let frames = try #require(client.collector.wait { $0.contains { $0.requestID == 99 } })
        #expect(frames.last?.message.errorCode == .unknownMessage)
        #expect(client.session.isClosed)
        _ = storage
    }

    @Test func aMalformedBodyGetsMalformedFrameAndCloses() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        // A PING body must be 8 bytes.
        client.session.receive(Frame(type: 0x02, requestID: 5, body: [1, 2, 3]).encoded)
        let frames = try #require(client.collector.wait { $0.contains { $0.requestID == 5 } })
        #expect(frames.last?.message.errorCode == .malformedFrame)
        #expect(client.session.isClosed)
        _ = storage
    }

    @Test func anOversizeLengthGetsFrameTooLargeBeforeItsBodyArrives() throws {
        let (hub, storage) = try makeHub { $0.maximumFrameLength = 1024 }
        let client = try TestClient.connected(to: hub)
        client.session.receive([0, 0, 0x10, 0])  // 4096 bytes announced, none sent
        let frames = try #require(client.collector.wait { $0.count == 2 })
        #expect(frames[1] == Received(requestID: 0, message: frames[1].message))
        #expect(frames[1].message.errorCode == .frameTooLarge)
        #expect(client.session.isClosed)
        _ = storage
    }

    @Test func framesBeforeABadOneAreStillAnsweredInOrder() throws {
        let (hub, storage) = try makeHub()
        let client = TestClient(hub: hub)
        var bytes = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "c").encoded(requestID: 1)
        bytes += try ClientMessage.ping(nonce: 2).encoded(requestID: 2)
        bytes += Frame(type: 0x02, requestID: 3, body: []).encoded
        bytes += try ClientMessage.ping(nonce: 4).encoded(requestID: 4)
        client.session.receive(bytes)
        let replies = client.collector.received
        #expect(replies.map(\.requestID) == [1, 2, 3])
        #expect(replies[1].message == .pong(nonce: 2))
        #expect(replies[2].message.errorCode == .malformedFrame)
        _ = storage
    }

    @Test func bytesFedOneAtATimeAreHandledLikeWholeFrames() throws {
        let (hub, storage) = try makeHub()
        let client = TestClient(hub: hub)
        var bytes = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "bytewise").encoded(requestID: 1)
        for index in 0..<20 {
            bytes += try ClientMessage.publish(.init(stream: "split", payload: payload(index))).encoded(requestID: UInt32(2 + index))
        }
        for byte in bytes { client.session.receive([byte]) }
        let replies = try client.replies(from: 1, count: 21)
        #expect(replies.count == 21)
        #expect(replies.dropFirst().map(\.message.publishedSequence) == (1...20).map { UInt64($0) })
        _ = storage
    }

    @Test func bytesFedInRandomSplitsAreHandledLikeWholeFrames() throws {
        let (hub, storage) = try makeHub()
        var generator = SeededGenerator(seed: 7)
        for round in 0..<20 {
            let client = TestClient(hub: hub)
            var bytes = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "split").encoded(requestID: 1)
            for index in 0..<10 {
                bytes += try ClientMessage.ping(nonce: UInt64(index)).encoded(requestID: UInt32(2 + index))
            }
            var offset = 0
            while offset < bytes.count {
                let length = Int.random(in: 1...17, using: &generator)
                client.session.receive(bytes[offset..<min(bytes.count, offset + length)])
                offset += length
            }
            let replies = client.collector.received
            #expect(replies.count == 11, "round \(round)")
            #expect(replies.dropFirst().map(\.message) == (0..<10).map { ServerMessage.pong(nonce: UInt64($0)) })
        }
        _ = storage
    }

    @Test func closeEndsTheSubscriptionsAndIgnoresLaterBytes() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "closing")
        _ = try client.request(.subscribe(.init(subscriptionID: 1, stream: "closing", credit: 10)))
        #expect(hub.subscriberCount(of: "closing") == 1)
        client.session.close()
        #expect(client.session.isClosed)
        #expect(hub.subscriberCount(of: "closing") == 0)
        let before = client.collector.received.count
        try client.send(.ping(nonce: 1))
        #expect(client.collector.received.count == before)
        _ = storage
    }

    @Test func aSessionDroppedWithoutCloseEndsItsSubscriptions() throws {
        let (hub, storage) = try makeHub()
        try storage.log.append([1], to: "dropped", creating: true)
        do {
            let client = try TestClient.connected(to: hub)
            _ = try client.request(.subscribe(.init(subscriptionID: 1, stream: "dropped", credit: 0)))
            #expect(hub.subscriberCount(of: "dropped") == 1)
        }
        #expect(hub.subscriberCount(of: "dropped") == 0)
    }

    @Test func anOutputThatClosesTheSessionWhileEventsAreDeliveredDoesNotWaitForItself() throws {
        let (hub, storage) = try makeHub()
        try storage.log.append([1], to: "s", creating: true)
        let session = Mutex<ConnectionSession?>(nil)
        let closed = DispatchSemaphore(value: 0)
        let collector = FrameCollector()
        let created = ConnectionSession(hub: hub) { bytes in
            collector.take(bytes)
            if collector.received.last?.message.isEvents == true {
                session.withLock { $0 }?.close()
                closed.signal()
            }
        }
        session.withLock { $0 = created }
        created.receive(
            try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "c").encoded(requestID: 1)
                + ClientMessage.subscribe(.init(subscriptionID: 1, stream: "s", credit: 10)).encoded(requestID: 2))
        #expect(closed.wait(timeout: .now() + 20) == .success)
        #expect(created.isClosed)
        #expect(hub.subscriberCount(of: "s") == 0)
    }
}

extension EventLog {
    /// Appends after making sure the stream exists (tests only).
    func append(_ payload: [UInt8], to stream: String, creating: Bool) throws {
        try ensureStream(stream)
        try append(payload, to: stream)
    }
}

extension ServerMessage {
    var publishedSequence: UInt64? {
        if case let .published(sequence, _, _) = self { return sequence }
        return nil
    }
}

@Suite(.serialized) struct ShutdownTests {
    @Test func shuttingDownEndsEachSubscriptionThenSendsShuttingDownAndCloses() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "s")
        let subscribeID = try client.send(.subscribe(.init(subscriptionID: 3, stream: "s", credit: 10)))
        _ = try client.waitForEvents(of: 3, count: 1)
        client.session.shutDown()
        let frames = client.collector.received
        #expect(frames.suffix(2) == [
            Received(requestID: subscribeID, message: .subscriptionEnded(subscriptionID: 3, reason: .serverShuttingDown, message: "the server is shutting down.")),
            Received(requestID: 0, message: .error(code: .shuttingDown, message: "the server is shutting down; reconnect later.")),
        ])
        #expect(client.session.isClosed && hub.subscriberCount(of: "s") == 0)
        try client.send(.ping(nonce: 1))
        #expect(client.collector.received.count == frames.count)
        _ = storage
    }
}
