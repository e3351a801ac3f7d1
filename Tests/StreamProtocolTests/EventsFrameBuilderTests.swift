import Testing

@testable import StreamProtocol

struct EventsFrameBuilderTests {
    @Test func itWritesTheSameBytesAsTheEventsMessage() throws {
        let events = [
            WireEvent(sequence: 7, timestamp: 1_700_000_000_000_000, payload: Array("first".utf8)),
            WireEvent(sequence: 8, timestamp: 1_700_000_000_000_001, payload: []),
            WireEvent(sequence: 9, timestamp: -1, kind: .failed, payload: Array("broke".utf8)),
        ]
        var builder = EventsFrameBuilder(subscriptionID: 42, requestID: 3, capacity: 16)
        for event in events {
            try event.payload.withUnsafeBytes { try builder.append(sequence: event.sequence, timestamp: event.timestamp, kind: event.kind, payload: $0) }
        }
        #expect(builder.count == 3)
        #expect(builder.payloadBytes == 10)
        let expected = try ServerMessage.events(subscriptionID: 42, events: events).encoded(requestID: 3)
        #expect(builder.finished() == expected)
    }

    @Test func anEmptyBuilderIsAnEventsFrameWithNoEvents() throws {
        let frame = EventsFrameBuilder(subscriptionID: 1, requestID: 2).finished()
        var decoder = FrameDecoder()
        decoder.append(frame)
        let decoded = try #require(try decoder.next())
        #expect(try ServerMessage(decoded) == .events(subscriptionID: 1, events: []))
    }
}
