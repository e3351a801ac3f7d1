import Foundation
import StreamClient
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
    /// acknowledged, while the daemon is killed with SIGKILL and started again 20 times.
    @Test func publishingWithRetriesAcrossTwentySigkillsStoresEachIdOnce() async throws {
        let daemon = try DaemonFixture()
        let killed = Atomic<Bool>(false)
        let publisher = Task { () -> (published: Int, retries: Int) in
            var connection: StreamConnection?
            var retries = 0
            var index = 0
            while !killed.load(ordering: .acquiring) || index < 50 {
                do {
                    if connection == nil { connection = try await StreamConnection.connect(socketPath: daemon.socket) }
                    _ = try await connection!.append(bytes("event \(index)"), to: "once", messageID: "id-\(index)")
                    index += 1
                } catch {
                    connection?.close()
                    connection = nil
                    retries += 1
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            connection?.close()
            return (index, retries)
        }
        for round in 0..<20 {
            try await Task.sleep(for: .milliseconds(30 + 17 * (round % 7)))
            #expect(daemon.stop(with: SIGKILL) == SIGKILL)
            try daemon.start()
        }
        killed.store(true, ordering: .releasing)
        let (published, retries) = try await publisher.value
        #expect(retries >= 20, "every kill broke a publish that was retried")
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { reader.close() }
        var stored: [String] = []
        for try await event in reader.history(of: "once", from: .all) { stored.append(String(decoding: event.payload, as: UTF8.self)) }
        #expect(stored == (0..<published).map { "event \($0)" }, "each of the \(published) ids stored once, in order")
    }
}
