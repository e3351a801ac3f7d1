import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// The reproduction of issue 14, defect 4 against a real daemon: publishes with 60 KB message ids
/// to three streams grew it from 26 MiB to 1.75 GiB. They are refused now, and short ids still
/// de-duplicate.
@Suite struct MessageIDLimitEndToEndTests {
    @Test func publishesWithSixtyKilobyteIdsAreRefusedWithASentenceAndTheDaemonStaysSmall() throws {
        let daemon = try DaemonFixture()
        let client = try SocketClient.connected(to: daemon.socket)
        let before = try DaemonResources.residentBytes(of: daemon.processID)
        for index in 0..<300 {
            let stream = "s\(index % 3)"
            let id = String(repeating: "\(index % 10)", count: 60 * 1024 - 8) + String(format: "%08d", index)
            let reply = try client.request(.publish(.init(stream: stream, messageID: id, payload: [1])))
            guard case let .error(code, message) = reply else {
                Issue.record("publish \(index) with a 60 KB id was accepted: \(reply)")
                return
            }
            #expect(code == .invalidArgument)
            #expect(message == "the message id published to \"\(stream)\" is 61440 bytes long, but message ids may be at most 128 bytes; nothing was stored. Use a shorter id, such as a UUID or a hash of the event.")
        }
        let after = try DaemonResources.residentBytes(of: daemon.processID)
        #expect(after - before < 64 * 1024 * 1024)
        // A short id is remembered: its retry is a duplicate of the first publish.
        let id = UUID().uuidString
        guard case let .published(first, _, duplicate: false) = try client.request(.publish(.init(stream: "s0", messageID: id, payload: [2]))),
            case let .published(again, _, duplicate: true) = try client.request(.publish(.init(stream: "s0", messageID: id, payload: [2])))
        else { throw TestFailure("a short id was not de-duplicated") }
        #expect(first == again)
    }
}
