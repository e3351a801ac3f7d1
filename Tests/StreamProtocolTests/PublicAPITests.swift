import StreamProtocol
import Testing

/// Uses the module through its public interface only (no `@testable`), so that what a client in
/// another module needs cannot silently become internal.
@Suite struct PublicAPITests {
    @Test func aClientAndAServerCanEncodeAndDecodeThroughThePublicInterface() throws {
        var decoder = FrameDecoder(maximumLength: Frame.defaultMaximumLength)
        decoder.append(try ClientMessage.publish(.init(stream: "orders", payload: [1, 2])).encoded(requestID: 7))
        decoder.append(try ServerMessage.published(sequence: 1, timestamp: 5, duplicate: false).encoded(requestID: 7))
        let request = try #require(try decoder.next())
        let reply = try #require(try decoder.next())
        #expect(request.requestID == 7 && reply.requestID == 7)
        #expect(try ClientMessage(request) == .publish(.init(stream: "orders", payload: [1, 2])))
        #expect(try ServerMessage(reply) == .published(sequence: 1, timestamp: 5, duplicate: false))
        #expect(ErrorCode.streamNotFound.description == "stream_not_found")
    }
}
