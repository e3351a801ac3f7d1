import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

/// A publish retried after the daemon was killed is not stored twice: the message ids are stored with
/// their events, so a restarted daemon knows them.
@Suite struct DeduplicationAcrossCrashesTests {
    @Test func aPublishRetriedAfterASigkillIsAnsweredWithItsOriginal() async throws {
        let daemon = try DaemonFixture()
        let before = try await StreamConnection.connect(socketPath: daemon.socket)
        let first = try await before.append(bytes("one"), to: "orders", messageID: "order-1")
        _ = try await before.append(bytes("two"), to: "orders")
        before.close()
        #expect(daemon.stop(with: SIGKILL) == SIGKILL)
        try daemon.start()
        let after = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { after.close() }
        let retried = try await after.append(bytes("one"), to: "orders", messageID: "order-1")
        #expect(retried.duplicate && retried.sequence == 1 && retried.timestamp == first.timestamp, "\(retried)")
        #expect(try await after.streamInfo("orders").lastSequence == 2)
        #expect(try await after.append(bytes("three"), to: "orders", messageID: "order-3").sequence == 3)
    }

    /// One publisher gives each event an id and retries it, on a new connection, until it is
    /// acknowledged, while the daemon is killed with SIGKILL and started again 20 times. Publisher and
    /// killer run on threads of their own: in a full run the concurrency pool may be held for minutes.
    @Test func publishingWithRetriesAcrossTwentySigkillsStoresEachIdOnce() async throws {
        let daemon = try DaemonFixture()
        let killed = Atomic<Bool>(false)
        let publisher = BackgroundWork { () -> (published: Int, retries: Int) in
            var client: SocketClient?
            var retries = 0
            var index = 0
            while !killed.load(ordering: .acquiring) || index < 50 {
                do {
                    if client == nil {
                        let connecting = try SocketClient()
                        try connecting.connect(to: daemon.socket, timeout: 60)
                        _ = try connecting.request(.hello(minVersion: 1, maxVersion: 1, clientName: "retrying"))
                        client = connecting
                    }
                    let reply = try client!.request(.publish(.init(stream: "once", messageID: "id-\(index)", payload: bytes("event \(index)"))))
                    guard case .published = reply else { throw TestFailure("the publish was answered \(reply)") }
                    index += 1
                } catch {
                    client = nil
                    retries += 1
                    usleep(5_000)
                }
            }
            return (index, retries)
        }
        try await onOwnThread {
            for round in 0..<20 {
                usleep(UInt32(30_000 + 17_000 * (round % 7)))
                #expect(daemon.stop(with: SIGKILL) == SIGKILL)
                try daemon.start()
            }
        }
        killed.store(true, ordering: .releasing)
        let (published, retries) = try publisher.result(within: patience.timeInterval)
        #expect(retries >= 20, "every kill broke a publish that was retried")
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { reader.close() }
        var stored: [String] = []
        for try await event in reader.history(of: "once", from: .all) { stored.append(String(decoding: event.payload, as: UTF8.self)) }
        #expect(stored == (0..<published).map { "event \($0)" }, "each of the \(published) ids stored once, in order")
    }
    /// The client library's way to the same guarantee: `IdempotentPublisher` gives each append an id
    /// and sends it again on a new connection until it is acknowledged.
    @Test func anIdempotentPublisherStoresEachAppendOnceAcrossSigkills() async throws {
        let daemon = try DaemonFixture()
        let publisher = IdempotentPublisher(socketPath: daemon.socket, reconnect: ReconnectPolicy(maximumAttempts: 400, maximumDelay: .milliseconds(100)))
        defer { publisher.close() }
        let killing = Atomic<Bool>(true)
        let killer = Task {
            try await onOwnThread {
                for round in 0..<5 {
                    usleep(UInt32(40_000 + 23_000 * round))
                    #expect(daemon.stop(with: SIGKILL) == SIGKILL)
                    try daemon.start()
                }
                killing.store(false, ordering: .releasing)
            }
        }
        var receipts: [AppendReceipt] = []
        while killing.load(ordering: .acquiring) || receipts.count < 300 {
            receipts.append(try await publisher.append(bytes("event \(receipts.count)"), to: "exact"))
        }
        try await killer.value
        #expect(receipts.map(\.sequence) == Array(1...UInt64(receipts.count)), "each append got the next sequence, once")
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { reader.close() }
        var stored: [String] = []
        for try await event in reader.history(of: "exact", from: .all) { stored.append(String(decoding: event.payload, as: UTF8.self)) }
        #expect(stored == (0..<receipts.count).map { "event \($0)" })
        let refused = await #expect(throws: StreamClientError.self) { try await publisher.append([1], to: "not a name!") }
        #expect(refused?.isRetryable == false, "an error a retry cannot mend is thrown at once: \(String(describing: refused))")
        publisher.close()
        let closed = await #expect(throws: StreamClientError.self) { try await publisher.append([1], to: "exact") }
        #expect(closed?.isConnectionLoss == true)
    }
    @Test func theReadmeExamplePublishesAPaymentAndIsThisCode() async throws {
        let daemon = try DaemonFixture()
        let socket = daemon.socket
        let publisher = IdempotentPublisher(socketPath: socket)
        let receipt = try await publisher.append(Array("paid".utf8), to: "payments")
        #expect(receipt.sequence == 1 && !receipt.duplicate)
        publisher.close()
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: "let publisher = IdempotentPublisher("), "no README block shows IdempotentPublisher")
        let missing = ReadmeBlocks.missingLine(of: block, in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(missing == nil, "README line not in the test, in order: \(missing ?? "")")
    }
}
