import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// A subscriber that stops reading must slow nobody else, cost the daemon bounded memory, and later
/// get everything.
@Suite struct SlowConsumerTests {
    /// Bytes of each payload: 200 000 of them make 40 MB, more than the growth allowed below.
    static let payloadBytes = 200
    /// How much the daemon's resident memory may grow over its size before the load.
    ///
    /// Why 32 MiB: what the daemon may rightly hold for a stalled subscriber is bounded by its limits,
    /// not by the backlog: the subscription's live buffer (at most 1024 events or 4 MiB), one outbound
    /// `EVENTS` frame or a few (512 events or 1 MiB each) waiting for the socket, the socket buffers,
    /// SQLite's page caches for the writer and the readers (a few MiB) and the allocator's slack; the
    /// same load without the subscriber grows the daemon by about 1-2 MiB. A daemon that queued the
    /// backlog would hold the 40 MB of payloads (more with framing) and break the bound.
    static let allowedGrowthKiB = 32 * 1024

    /// What one run measured.
    struct Run {
        var baselineKiB: Int
        var peakKiB: Int
        var publishing: Duration
    }

    @Test func aStalledSubscriberDoesNotSlowPublishersAndLaterGetsEveryEventInOrder() async throws {
        let run = try await stallWhilePublishing(eventCount: 50_000)
        // Not slowed to a stop: the whole load went through while nothing was read (it takes about a
        // second; the bound leaves room for a loaded machine).
        #expect(run.publishing < .seconds(30))
    }

    @Test
    func aStalledSubscriberWithAllTheCreditKeepsTheDaemonsMemoryBounded() async throws {
        let run = try await stallWhilePublishing(eventCount: 200_000)
        let growth = run.peakKiB - run.baselineKiB
        #expect(growth < Self.allowedGrowthKiB, "the daemon grew by \(growth) KiB while a subscriber was stalled")
    }

    /// Publishes `eventCount` events while a raw subscriber with unlimited credit reads nothing, then
    /// has it read them all and checks they arrived in order; returns the daemon's memory and the time.
    private func stallWhilePublishing(eventCount: Int) async throws -> Run {
        let daemon = try DaemonFixture()
        let pid = daemon.processID
        let publisher = try await StreamConnection.connect(socketPath: daemon.socket)
        try await publisher.createStream("flood")
        let stalled = try SocketClient.connected(to: daemon.socket)
        // All the credit there is: only the socket, not flow control, can hold the daemon back.
        let reply = try stalled.request(.subscribe(.init(subscriptionID: 1, stream: "flood", start: .all, credit: .max)))
        guard case .subscribed = reply else { throw TestFailure("not subscribed: \(reply)") }
        // Warm up the publish path, so the baseline includes the caches any publish load needs.
        let filler = [UInt8](repeating: 0x2E, count: Self.payloadBytes - 8)
        let payload = { @Sendable (index: Int) -> [UInt8] in Array(String(format: "%08d", index).utf8) + filler }
        _ = try await publisher.append(contentsOf: (0..<1000).map(payload), to: "flood")
        let baseline = try residentKiB(of: pid)

        // Timed on a thread of its own, through a blocking socket: in a full run the tests that hold the
        // concurrency pool's threads would otherwise stretch the time between two publishes.
        let (publishing, peak) = try await onOwnThread { () throws -> (Duration, Int) in
            let client = try SocketClient.connected(to: daemon.socket)
            let started = ContinuousClock.now
            var peak = baseline
            for first in stride(from: 1000, to: eventCount, by: 1000) {
                let entries = (first..<min(first + 1000, eventCount)).map { ClientMessage.PublishBatch.Entry(payload: payload($0)) }
                let reply = try client.request(.publishBatch(.init(stream: "flood", entries: entries)))
                guard case .publishedBatch = reply else { throw TestFailure("publish failed: \(reply)") }
                peak = max(peak, try residentKiB(of: pid))
            }
            return (ContinuousClock.now - started, peak)
        }
        print("slow consumer: \(eventCount) events published in \(publishing), daemon RSS \(baseline) KiB -> peak \(peak) KiB")
        try await publisher.ping()

        // The subscriber reads again and gets everything, in order.
        let events = try stalled.events(of: 1, count: eventCount)
        #expect(events.count == eventCount)
        #expect(events.map(\.sequence).elementsEqual(1...UInt64(eventCount)))
        let wrong = events.indices.first { events[$0].payload != payload($0) }
        #expect(wrong == nil, "event \(wrong.map { $0 + 1 } ?? 0) has the wrong payload")
        publisher.close()
        return Run(baselineKiB: baseline, peakKiB: peak, publishing: publishing)
    }
}
