import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// Message ids are short and the ids a hub remembers take bounded memory (issue 14, defect 4: 60 KB
/// ids grew the daemon to 1.75 GiB).
@Suite struct MessageIDLimitTests {
    @Test func aPublishWithAnIdLongerThanTheLimitIsRefusedWithASentenceAndStoresNothing() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let id = String(repeating: "k", count: 60 * 1024)
        let reply = try client.request(.publish(.init(stream: "ids", messageID: id, payload: [1])))
        guard case let .error(code, message) = reply else {
            Issue.record("a 60 KB message id was accepted: \(reply)")
            return
        }
        #expect(code == .invalidArgument)
        #expect(message.contains("61440 bytes long") && message.contains("at most 128 bytes") && message.hasSuffix("."))
        #expect(try storage.log.streamInfo("ids") == nil)
        // An id at the limit is fine, and the connection goes on.
        let accepted = try client.request(.publish(.init(stream: "ids", messageID: String(repeating: "k", count: 128), payload: [2])))
        #expect(accepted.isPublished)
    }

    @Test func aBatchWithOneLongIdIsRefusedWholeNamingTheEvent() throws {
        let (hub, storage) = try makeHub { $0.maximumMessageIDBytes = 16 }
        let client = try TestClient.connected(to: hub)
        let entries: [ClientMessage.PublishBatch.Entry] = [
            .init(messageID: "a", payload: [1]), .init(messageID: String(repeating: "b", count: 17), payload: [2]),
        ]
        let reply = try client.request(.publishBatch(.init(stream: "ids", entries: entries)))
        guard case let .error(code, message) = reply else {
            Issue.record("a batch with a long id was accepted: \(reply)")
            return
        }
        #expect(code == .invalidArgument)
        #expect(message.contains("event 2 of 2") && message.contains("17 bytes long") && message.contains("at most 16 bytes"))
        #expect(try storage.log.streamInfo("ids") == nil)
    }

    @Test func theIdsRememberedOverManyStreamsStayUnderTheHubsByteLimit() throws {
        let (hub, storage) = try makeHub {
            $0.deduplicationBytesTotal = 128 * 1024
            $0.deduplicationWindowBytes = 64 * 1024
        }
        let client = try TestClient.connected(to: hub)
        for stream in 0..<4 {
            let entries = (0..<1_000).map { ClientMessage.PublishBatch.Entry(messageID: "\(stream)-\($0)-" + String(repeating: "i", count: 110), payload: [1]) }
            let reply = try client.request(.publishBatch(.init(stream: "s\(stream)", entries: entries)))
            guard case .publishedBatch = reply else { throw TestFailure("the batch failed: \(reply)") }
            #expect(hub.deduplicationBytes.usedBytes <= 128 * 1024)
        }
        #expect(hub.deduplicationBytes.usedBytes > 64 * 1024)
        // Deleting a stream gives its share back.
        let before = hub.deduplicationBytes.usedBytes
        _ = try client.request(.deleteStream(name: "s3"))
        #expect(hub.deduplicationBytes.usedBytes < before)
        withExtendedLifetime(storage) {}
    }
}

extension ServerMessage {
    fileprivate var isPublished: Bool {
        if case .published = self { return true }
        return false
    }
}
