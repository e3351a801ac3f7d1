import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// `END_STREAM`: a client stores a stream's completion or failure, which subscribers receive as its
/// last event and after which the stream takes nothing more.
struct EndStreamTests {
    @Test func aCompletionIsStoredAsTheLastEventAndSubscribersGetIt() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "s")
        let subscribed = try client.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 10)))
        guard case .subscribed = subscribed else { throw TestFailure("not subscribed: \(subscribed)") }
        let reply = try client.request(.endStream(stream: "s", failure: nil, expectedLastSequence: nil))
        #expect(reply.publishedSequence == 2)
        let events = try client.waitForEvents(of: 1, count: 2)
        #expect(events.map(\.kind) == [.value, .completed])
        let refused = try client.request(.publish(.init(stream: "s", payload: [2])))
        #expect(refused.errorCode == .invalidArgument)
        #expect(try storage.log.streamInfo("s")?.lastSequence == 2)
    }

    @Test func aFailureKeepsItsMessage() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        #expect(try client.request(.endStream(stream: "new", failure: "disk on fire", expectedLastSequence: nil)).publishedSequence == 1)
        var stored: [(LogEvent.Kind, String)] = []
        try storage.log.read("new", from: .all) { event in
            stored.append((event.kind, String(decoding: event.payload, as: UTF8.self)))
            return true
        }
        #expect(stored.map(\.0) == [.failed])
        #expect(stored.map(\.1) == ["disk on fire"])
    }

    @Test func anExpectedLastSequenceIsCheckedAndASecondEndIsRefused() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "s")
        #expect(try client.request(.endStream(stream: "s", failure: nil, expectedLastSequence: 0)).errorCode == .wrongLastSequence)
        #expect(try client.request(.endStream(stream: "s", failure: nil, expectedLastSequence: 1)).publishedSequence == 2)
        #expect(try client.request(.endStream(stream: "s", failure: "again", expectedLastSequence: nil)).errorCode == .invalidArgument)
        #expect(try client.request(.endStream(stream: "bad name", failure: nil, expectedLastSequence: nil)).errorCode == .invalidStreamName)
        _ = storage
    }
}
