import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// The window a server is configured with reaches its log, and a window below zero is taken as none
/// rather than trapping the writer.
@Suite struct DeduplicationWindowSettingTests {
    @Test func aNegativeWindowRemembersNoIdAndTheServerGoesOn() async throws {
        try await withServer(configure: { $0.limits.deduplicationWindow = -5 }) { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            for expected in UInt64(1)...2 {
                let reply = try client.request(.publish(.init(stream: "ids", messageID: "same", payload: [1])))
                #expect(reply == .published(sequence: expected, timestamp: reply.timestamp, duplicate: false), "\(reply)")
            }
            #expect(try client.request(.ping(nonce: 7)) == .pong(nonce: 7))
        }
    }
}

extension ServerMessage {
    /// The timestamp of a `PUBLISHED` reply, 0 for any other.
    fileprivate var timestamp: Int64 {
        if case let .published(_, timestamp, _) = self { return timestamp }
        return 0
    }
}
