import EventLog
import Foundation
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// A daemon killed with SIGKILL (or stopped with SIGTERM) in the middle of a publish load keeps every
/// event it acknowledged.
@Suite struct CrashDuringPublishLoadTests {
    /// The acknowledged events, by sequence, of every publisher.
    private final class Acknowledged: Sendable {
        let bySequence = Mutex<[UInt64: String]>([:])
        var count: Int { bySequence.withLock { $0.count } }

        func record(_ published: [AppendReceipt], _ payloads: [String]) {
            bySequence.withLock { table in
                for (ack, payload) in zip(published, payloads) { table[ack.sequence] = payload }
            }
        }
    }

    @Test(arguments: [SIGKILL, SIGTERM])
    func everyAcknowledgedEventSurvivesTheStopWithNoGapAndTheLogVerifiesClean(signal: Int32) async throws {
        let daemon = try DaemonFixture()
        let acknowledged = Acknowledged()
        let errors = Locked<[StreamClientError?]>([])
        let publishers = 4
        let connections = try await (0..<publishers).asyncMap { _ in try await StreamConnection.connect(socketPath: daemon.socket) }
        // Each publisher runs until its connection breaks: single publishes, and every third one a batch;
        // two of them share each connection, so its requests are pipelined.
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for publisher in 0..<publishers * 2 {
                    let connection = connections[publisher % publishers]
                    group.addTask {
                        var index = 0
                        while true {
                            do {
                                if index % 3 == 0 {
                                    let payloads = (0..<20).map { "p\(publisher)-\(index)-\($0)" }
                                    acknowledged.record(try await connection.append(contentsOf: payloads.map(bytes), to: "load"), payloads)
                                } else {
                                    let payload = "p\(publisher)-\(index)"
                                    acknowledged.record([try await connection.append(bytes(payload), to: "load")], [payload])
                                }
                            } catch {
                                // The daemon went away: every call waiting on it must say the connection is gone.
                                errors.withLock { $0.append(error as? StreamClientError) }
                                return
                            }
                            index += 1
                        }
                    }
                }
            }
        }
        #expect(await eventually { acknowledged.count >= 5000 })
        #expect(daemon.stop(with: signal) == (signal == SIGKILL ? SIGKILL : 0))
        await load.value
        let acked = acknowledged.bySequence.withLock { $0 }
        let ended = errors.value
        #expect(ended.count == publishers * 2)
        #expect(ended.allSatisfy { $0?.isConnectionLoss == true }, "\(ended)")
        #expect(acked.count >= 5000)

        try daemon.start()
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        let last = try await reader.streamInfo("load").lastSequence
        let collector = Collector()
        let subscription = reader.subscribe("load", from: .all).start(collector.observer)
        #expect(await collector.waitForValues(Int(last)))
        subscription.dispose()
        let stored = collector.values
        try requireContiguous(stored.map(\.sequence), 1...last, "after the restart")
        let missing = acked.filter { sequence, payload in
            sequence > last || text(stored[Int(sequence - 1)].payload) != payload
        }
        #expect(missing.isEmpty, "\(missing.count) acknowledged events are missing or different after the restart")
        reader.close()

        #expect(daemon.stop(with: SIGTERM) == 0)
        let log = try EventLog(path: daemon.database)
        defer { log.close() }
        let report = try log.verify()
        #expect(report.problems.isEmpty, "verify: \(report)")
        #expect(report.eventCount == last)
    }
}

extension Sequence {
    /// `map` with an async transform, one element after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
