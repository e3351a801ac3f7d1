import Dispatch
import EventLog
import StreamProtocol
import Synchronization
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite(.serialized) struct PublishTests {
    @Test func publishesAreAcknowledgedWithConsecutiveSequencesAfterTheyAreStored() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for index in 1...5 {
            let reply = try client.request(.publish(.init(stream: "orders", payload: payload(index))))
            guard case let .published(sequence, timestamp, duplicate) = reply else {
                Issue.record("not published: \(reply)")
                return
            }
            #expect(sequence == UInt64(index))
            #expect(timestamp > 0 && !duplicate)
            // Acknowledged means committed: the log has it now.
            #expect(try storage.log.streamInfo("orders")?.lastSequence == UInt64(index))
        }
        var stored: [[UInt8]] = []
        try storage.log.read("orders", from: .all) { event in
            stored.append([UInt8](event.payload))
            return true
        }
        #expect(stored == (1...5).map(payload))
    }

    @Test func aPublishToAMissingStreamCreatesItWithTheDefaultPolicy() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "fresh")
        let info = try #require(try storage.log.streamInfo("fresh"))
        #expect(info.policy == StreamPolicy())
    }

    @Test func aBatchIsStoredTogetherAndAnsweredWithOneEntryPerEvent() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([0], to: "batch")
        let reply = try client.request(.publishBatch(.init(stream: "batch", entries: (1...4).map { .init(payload: payload($0)) })))
        guard case let .publishedBatch(entries, timestamp) = reply else {
            Issue.record("not published: \(reply)")
            return
        }
        #expect(entries == (2...5).map { ServerMessage.PublishedEntry(sequence: UInt64($0)) })
        #expect(timestamp > 0)
        #expect(try storage.log.streamInfo("batch")?.lastSequence == 5)
    }

    @Test func anEmptyBatchIsAnInvalidArgument() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        #expect(try client.request(.publishBatch(.init(stream: "batch", entries: []))).errorCode == .invalidArgument)
        _ = storage
    }

    @Test func aMatchingExpectedLastSequenceIsStored() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let first = try client.request(.publish(.init(stream: "cas", expectedLastSequence: 0, payload: [1])))
        #expect(first.publishedSequence == 1)
        let second = try client.request(.publish(.init(stream: "cas", expectedLastSequence: 1, payload: [2])))
        #expect(second.publishedSequence == 2)
        let batch = try client.request(.publishBatch(.init(stream: "cas", expectedLastSequence: 2, entries: [.init(payload: [3]), .init(payload: [4])])))
        #expect(batch == .publishedBatch(entries: [.init(sequence: 3), .init(sequence: 4)], timestamp: batch.batchTimestamp))
        _ = storage
    }

    @Test func aWrongExpectedLastSequenceStoresNothingAndNamesTheActualOne() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "cas")
        try client.publish([2], to: "cas")
        let reply = try client.request(.publish(.init(stream: "cas", expectedLastSequence: 1, payload: [3])))
        guard case let .error(code, message) = reply else {
            Issue.record("stored despite a wrong expected sequence: \(reply)")
            return
        }
        #expect(code == .wrongLastSequence)
        #expect(message.contains("it is 2"))
        #expect(try storage.log.streamInfo("cas")?.lastSequence == 2)
        let batch = try client.request(.publishBatch(.init(stream: "cas", expectedLastSequence: 0, entries: [.init(payload: [9])])))
        #expect(batch.errorCode == .wrongLastSequence)
        #expect(try storage.log.streamInfo("cas")?.lastSequence == 2)
    }

    @Test func concurrentConditionalPublishersNeverBothWinTheSameSequence() async throws {
        let (hub, storage) = try makeHub()
        let clients = try (0..<4).map { _ in try TestClient.connected(to: hub) }
        let wins = await withTaskGroup(of: Int.self) { group in
            for client in clients {
                group.addTask {
                    var won = 0
                    for expected in 0..<25 {
                        let reply = try? client.request(.publish(.init(stream: "race", expectedLastSequence: UInt64(expected), payload: [1])))
                        if reply?.publishedSequence != nil { won += 1 }
                    }
                    return won
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wins == 25)
        #expect(try storage.log.streamInfo("race")?.lastSequence == 25)
    }

    @Test func aRepeatedMessageIdIsNotStoredAgainAndGetsTheOriginalSequence() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let first = try client.request(.publish(.init(stream: "dedup", messageID: "m-1", payload: [1])))
        try client.publish([2], to: "dedup")
        let again = try client.request(.publish(.init(stream: "dedup", messageID: "m-1", payload: [1])))
        guard case let .published(sequence, timestamp, duplicate) = again, case let .published(_, originalTime, _) = first else {
            Issue.record("unexpected replies \(first) \(again)")
            return
        }
        #expect(sequence == 1 && duplicate && timestamp == originalTime)
        #expect(try storage.log.streamInfo("dedup")?.lastSequence == 2)
        // A retried conditional publish that was stored gets its sequence, not wrong_last_sequence.
        let retried = try client.request(.publish(.init(stream: "dedup", expectedLastSequence: 0, messageID: "m-1", payload: [1])))
        #expect(retried == .published(sequence: 1, timestamp: originalTime, duplicate: true))
    }

    @Test func batchEntriesWithKnownOrRepeatedIdsAreMarkedDuplicate() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        _ = try client.request(.publish(.init(stream: "dedup", messageID: "a", payload: [1])))
        let reply = try client.request(.publishBatch(.init(stream: "dedup", entries: [
            .init(messageID: "a", payload: [1]), .init(messageID: "b", payload: [2]),
            .init(payload: [3]), .init(messageID: "b", payload: [2]),
        ])))
        guard case let .publishedBatch(entries, _) = reply else {
            Issue.record("not published: \(reply)")
            return
        }
        #expect(entries == [
            .init(sequence: 1, duplicate: true), .init(sequence: 2), .init(sequence: 3), .init(sequence: 2, duplicate: true),
        ])
        #expect(try storage.log.streamInfo("dedup")?.lastSequence == 3)
    }

    @Test func messageIdsAreRememberedPerStream() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        _ = try client.request(.publish(.init(stream: "one", messageID: "x", payload: [1])))
        let other = try client.request(.publish(.init(stream: "two", messageID: "x", payload: [1])))
        #expect(other == .published(sequence: 1, timestamp: other.publishedTimestamp, duplicate: false))
        _ = storage
    }

    @Test func anInvalidStreamNameIsRefusedWithTheLogsMessage() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        for name in ["", ".hidden", "bad name", "semi;colon'--", String(repeating: "x", count: 201)] {
            let reply = try client.request(.publish(.init(stream: name, payload: [1])))
            guard case let .error(code, message) = reply else {
                Issue.record("accepted \(name)")
                continue
            }
            #expect(code == .invalidStreamName)
            #expect(message.contains("names are 1...200 bytes"))
        }
        #expect(try storage.log.streams().isEmpty)
        #expect(!client.session.isClosed)
    }

    @Test func creatingMoreStreamsThanTheLimitIsRefused() throws {
        let (hub, storage) = try makeHub { $0.maximumStreams = 2 }
        let client = try TestClient.connected(to: hub)
        try client.publish([1], to: "a")
        try client.publish([1], to: "b")
        #expect(try client.request(.publish(.init(stream: "c", payload: [1]))).errorCode == .limitExceeded)
        #expect(try client.request(.createStream(name: "c", policy: .init())).errorCode == .limitExceeded)
        try client.publish([2], to: "a")
        #expect(try storage.log.streams().count == 2)
    }

    @Test func pipelinedPublishesShareOneCommitAndAreEachAnsweredInOrder() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try storage.log.ensureStream("pipe")
        let observed = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let observation = storage.log.observeAppends(to: "pipe") { append in
            let total = observed.withLock { commits in
                commits.append(append.events.count)
                return commits.reduce(0, +)
            }
            if total == 99 { done.signal() }
        }
        defer { observation.cancel() }
        var bytes: [UInt8] = []
        for index in 0..<100 {
            let id: String? = index == 60 ? "m-10" : (index == 10 ? "m-10" : nil)
            bytes += try ClientMessage.publish(.init(stream: "pipe", messageID: id, payload: payload(index))).encoded(requestID: UInt32(100 + index))
        }
        client.session.receive(bytes)
        let replies = try client.replies(from: 100, count: 100)
        #expect(replies.map(\.requestID) == (100..<200).map { UInt32($0) })
        #expect(replies[60].message.publishedSequence == 11)
        let fresh = replies.enumerated().filter { $0.offset != 60 }.compactMap { $0.element.message.publishedSequence }
        #expect(fresh == Array(1...99))
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(observed.withLock { $0 } == [99])
    }

    @Test func pipelinedConditionalPublishesAreCheckedOneByOne() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        var bytes: [UInt8] = []
        for (index, expected) in [0, 1, 1, 2].enumerated() {
            bytes += try ClientMessage.publish(.init(stream: "cas", expectedLastSequence: UInt64(expected), payload: [1])).encoded(requestID: UInt32(10 + index))
        }
        client.session.receive(bytes)
        let replies = try client.replies(from: 10, count: 4).map(\.message)
        #expect(replies.map(\.publishedSequence) == [1, 2, nil, 3])
        #expect(replies[2].errorCode == .wrongLastSequence)
        _ = storage
    }

    @Test func anOversizeEventInAPipelineFailsAloneAndItsNeighboursAreStored() throws {
        let storage = try TemporaryLog()
        var options = EventLogOptions()
        options.maximumEventBytes = 100
        let log = try EventLog(path: storage.directory + "/limited.sqlite", options: options)
        defer { log.close() }
        let client = try TestClient.connected(to: StreamHub(log: log))
        var bytes: [UInt8] = []
        for (index, size) in [10, 500, 10].enumerated() {
            bytes += try ClientMessage.publish(.init(stream: "big", payload: Array(repeating: 1, count: size))).encoded(requestID: UInt32(10 + index))
        }
        client.session.receive(bytes)
        let replies = try client.replies(from: 10, count: 3).map(\.message)
        #expect(replies.map(\.publishedSequence) == [1, nil, 2])
        #expect(replies[1].errorCode == .invalidArgument)
    }

    @Test func aFullDatabaseIsReportedAsStorageFull() throws {
        let storage = try TemporaryLog()
        var options = EventLogOptions()
        options.maximumPageCount = 40
        let log = try EventLog(path: storage.directory + "/small.sqlite", options: options)
        defer { log.close() }
        let client = try TestClient.connected(to: StreamHub(log: log))
        var random = SeededGenerator(seed: 3)
        var reply = ServerMessage.ok
        for _ in 0..<200 {
            let bytes = (0..<8_000).map { _ in UInt8.random(in: 0...255, using: &random) }
            reply = try client.request(.publish(.init(stream: "big", payload: bytes)))
            if reply.errorCode != nil { break }
        }
        #expect(reply.errorCode == .storageFull)
        #expect(!client.session.isClosed)
    }
}

extension ServerMessage {
    var batchTimestamp: Int64 {
        if case let .publishedBatch(_, timestamp) = self { return timestamp }
        return -1
    }

    var publishedTimestamp: Int64 {
        if case let .published(_, timestamp, _) = self { return timestamp }
        return -1
    }
}
