import EventLog
import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// What the daemon does on its own for streams nobody publishes to, and what it still answers about
/// a stream whose storage is damaged.
struct RetentionAndDamageTests {
    @Test func eventsPastTheirMaximumAgeGoWithoutAnyPublish() async throws {
        try await withServer(configure: { $0.retentionInterval = .milliseconds(50) }) { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            let created = try client.request(.createStream(name: "aging", policy: StreamPolicy(maxAge: .milliseconds(300))))
            guard case .streamInfo = created else { throw TestFailure("not created: \(created)") }
            for index in 0..<3 { try client.publish(payload(index), to: "aging") }
            try client.publish([1], to: "forever")
            let deadline = Date(timeIntervalSinceNow: 10)
            var count: UInt64 = .max
            while count > 0, Date() < deadline {
                guard case let .streamInfo(info) = try client.request(.getStreamInfo(name: "aging")) else { throw TestFailure("no info") }
                count = info.count
                if count > 0 { usleep(20_000) }
            }
            #expect(count == 0)
            guard case let .streamInfo(info) = try client.request(.getStreamInfo(name: "aging")) else { throw TestFailure("no info") }
            #expect(info.lastSequence == 3 && info.firstSequence == 4)  // nothing retained: where the next event goes
            guard case let .streamInfo(other) = try client.request(.getStreamInfo(name: "forever")) else { throw TestFailure("no info") }
            #expect(other.count == 1)
        }
    }

    @Test func aStreamWhoseFirstBlockIsDamagedStillAnswersInfoAndCanBeTruncatedAndDeleted() async throws {
        let directory = try ShortTemporaryDirectory()
        try storeTwoBlocks(in: directory.database)
        try DamagedDatabase.corruptFirstBlock(of: directory.database)
        try await withServer(in: directory) { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            guard case let .streamInfo(info) = try client.request(.getStreamInfo(name: "orders")) else { throw TestFailure("no info") }
            #expect(info.count == 200 && info.firstTime == 0)
            let truncated = try client.request(.truncateStream(name: "orders", truncation: .beforeSequence(101), dryRun: false))
            #expect(truncated == .truncated(removed: 100, firstSequence: 101))
            guard case let .streamInfo(repaired) = try client.request(.getStreamInfo(name: "orders")) else { throw TestFailure("no info") }
            #expect(repaired.firstTime > 0)
            #expect(try client.request(.deleteStream(name: "orders")) == .ok)
        }
    }

    /// "orders" with events 1...100 in one block and 101...200 in another.
    private func storeTwoBlocks(in path: String) throws {
        let log = try EventLog(path: path)
        defer { log.close() }
        _ = try log.createStream("orders")
        try log.append(contentsOf: (0..<100).map(payload), to: "orders")
        try log.append(contentsOf: (100..<200).map(payload), to: "orders")
    }
}
