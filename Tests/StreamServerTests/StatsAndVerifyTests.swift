import EventLog
import StreamProtocol
import Testing

@testable import StreamServer

@Suite struct StatsAndVerifyTests {
    @Test func statsCountStreamsEventsBytesSubscriptionsAndPublishes() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 0..<5 { try client.publish(Array("event \(index) of a stream".utf8), to: "a") }
        _ = try client.request(.publishBatch(.init(stream: "b", entries: [.init(messageID: "m", payload: [1]), .init(messageID: "m", payload: [1])])))
        _ = try client.request(.subscribe(.init(subscriptionID: 1, stream: "a", start: .newOnly, credit: 10)))
        guard case let .stats(stats) = try client.request(.getStats) else { Issue.record("no STATS"); return }
        #expect(stats.version == StreamdVersion.current)
        #expect(stats.databasePath == storage.log.path)
        #expect(stats.databaseBytes > 0)
        #expect(stats.streams == 2 && stats.events == 6)
        #expect(stats.storedBytes > 0 && stats.rawBytes >= 5 * 20)
        #expect(stats.subscriptions == 1 && stats.connections == 1)
        #expect(stats.publishedSinceStart == 6)  // the in-batch duplicate is not counted
        #expect(stats.publishRateMillis > 0)
    }

    @Test func statsCountConnectionsWhileTheirSessionsLive() throws {
        let (hub, storage) = try makeHub()
        var second: TestClient? = try TestClient.connected(to: hub)
        let client = try TestClient.connected(to: hub)
        guard case let .stats(both) = try client.request(.getStats) else { Issue.record("no STATS"); return }
        #expect(both.connections == 2)
        second = nil
        guard case let .stats(one) = try client.request(.getStats) else { Issue.record("no STATS"); return }
        #expect(one.connections == 1)
        _ = (second, storage)
    }

    @Test func streamInfoCarriesRawBytesAndThePublishRate() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for _ in 0..<3 { try client.publish(Array(repeating: 0x61, count: 100), to: "s") }
        guard case let .streamInfo(info) = try client.request(.getStreamInfo(name: "s")) else { Issue.record("no STREAM_INFO"); return }
        #expect(info.rawBytes >= 300 && info.rawBytes < 400)
        #expect(info.publishRateMillis > 0)
        _ = storage
    }

    @Test func verifyReportsASoundLogAndNamesAnUnknownStream() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1, 2, 3], to: "s")
        guard case let .verifyReport(report) = try client.request(.verify(stream: nil)) else { Issue.record("no VERIFY_REPORT"); return }
        #expect(report.problems.isEmpty && report.streams == 1 && report.events == 1)
        guard case .verifyReport = try client.request(.verify(stream: "s")) else { Issue.record("no VERIFY_REPORT"); return }
        #expect(try client.request(.verify(stream: "nope")).errorCode == .streamNotFound)
        #expect(try client.request(.verify(stream: ".bad")).errorCode == .invalidStreamName)
        _ = storage
    }
}
