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

/// An id the window forgot for lack of room while its event is still among the stream's last
/// `deduplicationWindow` is kept by the log, which the hub asks: the retry is not stored again.
@Suite struct ForgottenMessageIDTests {
    @Test func anIdForgottenForLackOfRoomIsStillAnsweredWithItsOriginal() throws {
        let (hub, storage) = try makeHub { $0.deduplicationWindowBytes = 16 * 1024 }
        let client = try TestClient.connected(to: hub)
        let id = { (index: Int) in "order-\(index)-" + String(repeating: "i", count: 100) }
        let entries = (0..<1_000).map { ClientMessage.PublishBatch.Entry(messageID: id($0), payload: [UInt8(truncatingIfNeeded: $0)]) }
        guard case .publishedBatch = try client.request(.publishBatch(.init(stream: "ids", entries: entries))) else {
            throw TestFailure("the batch failed")
        }
        // 16 KiB hold some 80 of these ids: the first is long forgotten here, not by the log.
        #expect(hub.entry(for: "ids").window.withLock { $0.original(of: id(0), at: .max) } == nil)
        let retried = try client.request(.publish(.init(stream: "ids", messageID: id(0), payload: [0])))
        guard case let .published(sequence, _, duplicate) = retried else { throw TestFailure("the retry failed: \(retried)") }
        #expect(sequence == 1 && duplicate)
        // In a batch too, beside an id the window still holds and a new one.
        let batch: [ClientMessage.PublishBatch.Entry] = [
            .init(messageID: id(1), payload: [1]), .init(messageID: id(999), payload: [2]), .init(messageID: "new", payload: [3]),
        ]
        let reply = try client.request(.publishBatch(.init(stream: "ids", entries: batch)))
        guard case let .publishedBatch(answered, _) = reply else { throw TestFailure("the batch failed: \(reply)") }
        #expect(answered == [.init(sequence: 2, duplicate: true), .init(sequence: 1_000, duplicate: true), .init(sequence: 1_001)])
        #expect(try storage.log.streamInfo("ids")?.lastSequence == 1_001)
    }

    /// However many ids the log keeps within a stream's window, the daemon reads no more of them than
    /// its window's bytes hold, and asks the log about the older ones.
    @Test func aWindowReadsOnlyTheNewestIdsItsBytesHoldAndAsksTheLogAboutOlderOnes() throws {
        let (hub, storage) = try makeHub { $0.deduplicationWindowBytes = 16 * 1024 }
        let client = try TestClient.connected(to: hub)
        let entries = (0..<1_000).map { ClientMessage.PublishBatch.Entry(messageID: "id-\($0)", payload: [UInt8(truncatingIfNeeded: $0)]) }
        guard case .publishedBatch = try client.request(.publishBatch(.init(stream: "ids", entries: entries))) else {
            throw TestFailure("the batch failed")
        }
        // A change of policy has the next publish with an id read the ids again.
        guard case .streamInfo = try client.request(.configureStream(name: "ids", policy: StreamPolicy())) else {
            throw TestFailure("config failed")
        }
        let retried = try client.request(.publish(.init(stream: "ids", messageID: "id-0", payload: [0])))
        guard case let .published(sequence, _, duplicate) = retried else { throw TestFailure("the retry failed: \(retried)") }
        #expect(sequence == 1 && duplicate, "id-0 is older than what was read, and the log was asked")
        let held = hub.entry(for: "ids").window.withLock { $0.count }
        #expect(held > 0 && held <= RememberedMessageIDs.mostIDs(in: 16 * 1024), "\(held) ids read")
        #expect(try storage.log.streamInfo("ids")?.lastSequence == 1_000)
    }
}

extension ServerMessage {
    fileprivate var isPublished: Bool {
        if case .published = self { return true }
        return false
    }
}
