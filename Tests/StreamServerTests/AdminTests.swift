import EventLog
import StreamProtocol
import Testing

@testable import StreamServer

@Suite(.serialized) struct AdminTests {
    private let policy = StreamPolicy(capacity: .last(100), maxAge: .seconds(60), maxBytes: 1 << 20, replay: .last(5))

    @Test func createStreamStoresThePolicyAndAnswersStreamInfo() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let reply = try client.request(.createStream(name: "made", policy: policy))
        #expect(reply == .streamInfo(.init(name: "made", policy: policy)))
        let stored = try #require(try storage.log.streamInfo("made"))
        #expect(stored.policy == policy)
        // The same policy again is fine; another one is stream_exists.
        #expect(try client.request(.createStream(name: "made", policy: policy)) == reply)
        #expect(try client.request(.createStream(name: "made", policy: .init())).errorCode == .streamExists)
    }

    @Test func everyDefaultStartSurvivesTheRoundTripThroughTheLog() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let starts: [StartPosition] = [.all, .last(3), .from(sequence: 7), .since(microseconds: 123_456), .newOnly]
        for (index, start) in starts.enumerated() {
            let wanted = StreamPolicy(replay: start)
            guard case let .streamInfo(info) = try client.request(.createStream(name: "start-\(index)", policy: wanted)) else {
                Issue.record("not created")
                continue
            }
            #expect(info.policy == wanted)
        }
        _ = storage
    }

    @Test func impossiblePoliciesAreInvalidArguments() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for bad in [
            StreamPolicy(maxAge: .zero), .init(maxBytes: 0), .init(replay: .streamDefault), .init(maxBytes: .max),
            .init(maxAge: .seconds(Int64.max / 1_000)),
        ] {
            #expect(try client.request(.createStream(name: "bad", policy: bad)).errorCode == .invalidArgument)
        }
        #expect(try storage.log.streamInfo("bad") == nil)
    }

    @Test func configureStreamReplacesThePolicyAndAppliesItsRetention() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 1...10 { try client.publish(payload(index), to: "conf") }
        guard case let .streamInfo(info) = try client.request(.configureStream(name: "conf", policy: .init(capacity: .last(3)))) else {
            Issue.record("not configured")
            return
        }
        #expect(info.policy.capacity == .last(3))
        #expect(info.count == 3 && info.firstSequence == 8 && info.lastSequence == 10)
        #expect(try client.request(.configureStream(name: "missing", policy: .init())).errorCode == .streamNotFound)
        _ = storage
    }

    @Test func getStreamInfoDescribesTheStreamAndItsSubscribers() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 1...4 { try client.publish(payload(index), to: "info") }
        _ = try client.request(.subscribe(.init(subscriptionID: 1, stream: "info", start: .newOnly, credit: 0)))
        guard case let .streamInfo(info) = try client.request(.getStreamInfo(name: "info")) else {
            Issue.record("no info")
            return
        }
        var times: [Int64] = []
        try storage.log.read("info", from: .all) { event in
            times.append(event.timestamp)
            return true
        }
        #expect(info.name == "info" && info.count == 4 && info.firstSequence == 1 && info.lastSequence == 4)
        #expect(info.firstTime == times.first && info.lastTime == times.last)
        #expect(info.storedBytes > 0 && info.subscribers == 1 && info.state == .open)
        #expect(try client.request(.getStreamInfo(name: "missing")).errorCode == .streamNotFound)
        #expect(try client.request(.getStreamInfo(name: "in valid")).errorCode == .invalidStreamName)
    }

    @Test func listStreamsNamesEveryStream() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        #expect(try client.request(.listStreams) == .streamList([]))
        for name in ["b", "a", "c"] { try client.publish([1], to: name) }
        guard case let .streamList(infos) = try client.request(.listStreams) else {
            Issue.record("no list")
            return
        }
        #expect(Set(infos.map(\.name)) == ["a", "b", "c"])
        #expect(infos.allSatisfy { $0.count == 1 })
        _ = storage
    }

    @Test(arguments: [
        (Truncation.beforeSequence(4), UInt64(3), UInt64(4)), (.keepLast(2), 8, 9), (.beforeSequence(100), 10, 0),
        (.keepLast(50), 0, 1),
    ])
    func aDryRunTruncationReportsWhatWouldGoAndRemovesNothing(truncation: Truncation, removed: UInt64, first: UInt64) throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 1...10 { try client.publish(payload(index), to: "t") }
        #expect(try client.request(.truncateStream(name: "t", truncation: truncation, dryRun: true)) == .truncated(removed: removed, firstSequence: first))
        #expect(try storage.log.streamInfo("t")?.firstSequence == 1)
        #expect(try client.request(.truncateStream(name: "t", truncation: truncation, dryRun: false)) == .truncated(removed: removed, firstSequence: first))
        #expect(try storage.log.streamInfo("t")?.count == 10 - removed)
    }

    @Test func truncatingByTimeMatchesItsDryRun() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 1...6 { try client.publish(payload(index), to: "t") }
        var fourth: Int64 = 0
        try storage.log.read("t", from: .from(sequence: 4)) { event in
            fourth = event.timestamp
            return false
        }
        let dry = try client.request(.truncateStream(name: "t", truncation: .olderThan(microseconds: fourth), dryRun: true))
        guard case let .truncated(removed, first) = dry else {
            Issue.record("no dry run: \(dry)")
            return
        }
        #expect(first <= 4 && removed == first - 1)
        #expect(try client.request(.truncateStream(name: "t", truncation: .olderThan(microseconds: fourth), dryRun: false)) == dry)
        #expect(try client.request(.truncateStream(name: "missing", truncation: .keepLast(1), dryRun: true)).errorCode == .streamNotFound)
    }

    @Test func deleteStreamRemovesItAndASecondDeleteIsStreamNotFound() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        _ = try client.request(.publish(.init(stream: "gone", messageID: "once", payload: [1])))
        #expect(try client.request(.deleteStream(name: "gone")) == .ok)
        #expect(try storage.log.streamInfo("gone") == nil)
        #expect(try client.request(.deleteStream(name: "gone")).errorCode == .streamNotFound)
        // A stream made again under the name starts over, and forgets the old message ids.
        let again = try client.request(.publish(.init(stream: "gone", messageID: "once", payload: [1])))
        #expect(again.publishedSequence == 1)
        guard case let .published(_, _, duplicate) = again else { return }
        #expect(!duplicate)
    }

    @Test func aClosedLogIsReportedAsShuttingDown() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        storage.log.close()
        #expect(try client.request(.publish(.init(stream: "late", payload: [1]))).errorCode == .shuttingDown)
        #expect(try client.request(.ping(nonce: 3)) == .pong(nonce: 3))
    }
}
