import StreamProtocol
import Testing

/// The messages of durable consumers (version 4) are laid out byte for byte as schemas/protocol.md shows.
@Suite struct ConsumerMessageTests {
    @Test func anAckIsItsStreamItsConsumerACountAndTheSequences() throws {
        #expect(try ClientMessage.ack(stream: "s", consumer: "c", sequences: [5, 7]).encoded(requestID: 9) == [
            0, 0, 0, 0x20, 0x24, 0, 0, 0, 0, 9,
            0, 1, 0x73,
            0, 1, 0x63,
            0, 0, 0, 2,
            0, 0, 0, 0, 0, 0, 0, 5,
            0, 0, 0, 0, 0, 0, 0, 7,
        ])
    }

    @Test func anAckCountingMoreSequencesThanItsBodyHoldsIsMalformedBeforeAnythingIsReserved() throws {
        let frame = Frame(type: 0x24, requestID: 9, body: [0, 1, 0x73, 0, 1, 0x63, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 5])
        let error = #expect(throws: ProtocolError.self) { _ = try ClientMessage(frame) }
        #expect("\(String(describing: error))".contains("ACK counts 4294967295 sequences but its body holds 1"))
    }

    @Test func deliveriesAreEventsEachFollowedByItsDeliveryCount() throws {
        let message = ServerMessage.deliveries(subscriptionID: 3, deliveries: [
            WireDelivery(event: WireEvent(sequence: 12, timestamp: 1, payload: [0xAB]), deliveries: 2),
        ])
        #expect(try message.encoded(requestID: 4) == [
            0, 0, 0, 0x28, 0xA3, 0, 0, 0, 0, 4,
            0, 0, 0, 3,
            0, 0, 0, 1,
            0, 0, 0, 0, 0, 0, 0, 12,
            0, 0, 0, 0, 0, 0, 0, 1,
            0,
            0, 0, 0, 1, 0xAB,
            0, 0, 0, 2,
        ])
    }

    @Test func aConsumerConfigIsStartAckWaitMaxDeliverMaxPendingAndDeadLetter() throws {
        let config = ConsumerConfig(start: .all, ackWait: .seconds(30), maxDeliver: nil, maxPending: 1_000, deadLetter: "d")
        #expect(try ClientMessage.addConsumer(stream: "s", name: "c", config: config).encoded(requestID: 1) == [
            0, 0, 0, 0x1E, 0x3A, 0, 0, 0, 0, 1,
            0, 1, 0x73,
            0, 1, 0x63,
            1,
            0, 0, 0, 0, 0, 0, 0x75, 0x30,
            0,
            0, 0, 0x03, 0xE8,
            1, 0, 1, 0x64,
        ])
    }
}
