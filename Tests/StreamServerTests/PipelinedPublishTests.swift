import Dispatch
import EventLog
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

@testable import StreamServer

/// Publishes without message ids are handed to the log without waiting; these check what must
/// still hold: replies in request order, conditions checked against every earlier publish, and no
/// reply lost at shutdown.
struct PipelinedPublishTests {
    private func frames(_ messages: [(ClientMessage, UInt32)]) throws -> [UInt8] {
        try messages.reduce(into: []) { bytes, pair in bytes += try pair.0.encoded(requestID: pair.1) }
    }

    @Test func creditForNoSubscriptionIsRefusedAfterThePublishesBeforeIt() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        _ = try client.request(.publish(.init(stream: "p", payload: payload(0))))
        // The publish waits for its commit; credit for a subscription that ended meanwhile must not
        // be refused before it is answered.
        let hold = try WriterHold(storage.log)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { hold.release() }
        client.session.receive(try frames([(.publish(.init(stream: "p", payload: payload(1))), 100), (.credit(subscriptionID: 42, credit: 1), 101)]))
        let replies = try client.replies(from: 100, count: 2)
        #expect(replies.map(\.requestID) == [100, 101])
        #expect(replies.last?.message.errorCode == .subscriptionNotFound)
        _ = storage
    }

    @Test func aRequestAfterPipelinedPublishesIsAnsweredAfterThem() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        var messages: [(ClientMessage, UInt32)] = (0..<50).map { (.publish(.init(stream: "p", payload: payload($0))), UInt32(100 + $0)) }
        messages.append((.getStreamInfo(name: "p"), 150))
        client.session.receive(try frames(messages))
        let replies = try client.replies(from: 100, count: 51)
        #expect(replies.map(\.requestID) == (100...150).map { UInt32($0) })
        #expect(replies.prefix(50).map(\.message.publishedSequence) == (1...50).map { UInt64($0) })
        guard case let .streamInfo(info) = replies[50].message else {
            Issue.record("no STREAM_INFO: \(replies[50].message)")
            return
        }
        #expect(info.lastSequence == 50)
        _ = storage
    }

    @Test func aConditionalPublishSeesEveryPipelinedPublishBeforeIt() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        var messages: [(ClientMessage, UInt32)] = (0..<30).map { (.publish(.init(stream: "c", payload: payload($0))), UInt32(10 + $0)) }
        messages.append((.publish(.init(stream: "c", expectedLastSequence: 30, payload: [1])), 40))
        messages.append((.publish(.init(stream: "c", expectedLastSequence: 30, payload: [2])), 41))
        client.session.receive(try frames(messages))
        let replies = try client.replies(from: 10, count: 32)
        #expect(replies[30].message.publishedSequence == 31)
        #expect(replies[31].message.errorCode == .wrongLastSequence)
        _ = storage
    }

    @Test func aConditionalPublishFromAnotherConnectionWaitsForPublishesStillCommitting() throws {
        let (hub, storage) = try makeHub()
        _ = try storage.log.createStream("c")
        _ = try storage.log.createStream("filler")
        let pipelining = try TestClient.connected(to: hub)
        let conditional = try TestClient.connected(to: hub)
        // A large batch keeps the writer busy, so the pipelined publishes are still queued when the
        // conditional one arrives: their sequences are taken, though not yet committed.
        let fillerDone = DispatchSemaphore(value: 0)
        storage.log.append(contentsOf: (0..<100_000).map { payload($0) }, to: "filler") { result in
            #expect(throws: Never.self) { try result.get() }
            fillerDone.signal()
        }
        pipelining.session.receive(try frames((0..<20).map { (.publish(.init(stream: "c", payload: payload($0))), UInt32(10 + $0)) }))
        let reply = try conditional.request(.publish(.init(stream: "c", expectedLastSequence: 0, payload: [1])))
        #expect(reply.errorCode == .wrongLastSequence)
        #expect(try pipelining.replies(from: 10, count: 20).map(\.message.publishedSequence) == (1...20).map { UInt64($0) })
        fillerDone.wait()
    }

    @Test func repliesKeepRequestOrderWhenALaterPublishInTheSameCommitIsRefused() throws {
        let (hub, storage) = try makeHub()
        _ = try storage.log.createStream("ended")
        try storage.log.appendCompleted(to: "ended")
        let client = try TestClient.connected(to: hub)
        _ = try storage.log.createStream("open")
        // Keep the writer busy with a large batch, so that the publishes below queue up behind it and
        // share one commit, in which the log answers refused appends before accepted ones.
        let filler = (0..<100_000).map { payload($0) }
        let fillerDone = DispatchSemaphore(value: 0)
        storage.log.append(contentsOf: filler, to: "open") { result in
            #expect(throws: Never.self) { try result.get() }
            fillerDone.signal()
        }
        let messages: [(ClientMessage, UInt32)] = [
            (.publish(.init(stream: "open", payload: [1])), 10),
            (.publish(.init(stream: "ended", payload: [2])), 11),
            (.publish(.init(stream: "open", payload: [3])), 12),
        ]
        client.session.receive(try frames(messages))
        fillerDone.wait()
        let replies = try client.replies(from: 10, count: 3)
        #expect(replies.map(\.requestID) == [10, 11, 12])
        #expect(replies[0].message.publishedSequence == 100_001)
        #expect(replies[1].message.errorCode == .invalidArgument)
        #expect(replies[2].message.publishedSequence == 100_002)
    }

    @Test func manyConnectionsPipeliningAndPublishingConditionallyGetDistinctConsecutiveSequences() throws {
        let (hub, storage) = try makeHub()
        let connections = 8, perConnection = 400
        let sequences = Mutex<[UInt64]>([])
        let misplaced = Mutex<[(expected: UInt64, got: UInt64)]>([])
        DispatchQueue.concurrentPerform(iterations: connections) { connection in
            guard let client = try? TestClient.connected(to: hub) else { return }
            var bytes: [UInt8] = []
            for index in 0..<perConnection {
                let message = ClientMessage.publish(.init(stream: "many", payload: payload(connection * perConnection + index)))
                bytes += (try? message.encoded(requestID: UInt32(1_000 + index))) ?? []
                if index % 50 == 49 {
                    client.session.receive(bytes)
                    bytes = []
                    // A conditional publish in the middle of the pipeline: retried until it wins.
                    while true {
                        let last = (try? storage.log.streamInfo("many")?.lastSequence) ?? 0
                        let reply = try? client.request(.publish(.init(stream: "many", expectedLastSequence: last, payload: [9])))
                        if let sequence = reply?.publishedSequence {
                            // Stored right after the sequence it expected, never behind a publish in flight.
                            if sequence != last + 1 { misplaced.withLock { $0.append((expected: last, got: sequence)) } }
                            sequences.withLock { $0.append(sequence) }
                            break
                        }
                    }
                }
            }
            client.session.receive(bytes)
            if let replies = try? client.replies(from: 1_000, count: perConnection) {
                sequences.withLock { $0 += replies.compactMap(\.message.publishedSequence) }
            }
        }
        let all = sequences.withLock { $0 }.sorted()
        let expected = connections * (perConnection + perConnection / 50)
        #expect(all == (1...UInt64(expected)).map { $0 })
        #expect(misplaced.withLock { $0.isEmpty })
        #expect(try storage.log.streamInfo("many")?.lastSequence == UInt64(expected))
    }

    @Test func shutdownAnswersEveryPipelinedPublishBeforeItsLastFrame() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let messages: [(ClientMessage, UInt32)] = (0..<200).map { (.publish(.init(stream: "s", payload: payload($0))), UInt32(10 + $0)) }
        client.session.receive(try frames(messages))
        client.session.shutDown()
        let received = client.collector.received.filter { $0.requestID >= 10 }
        #expect(received.map(\.requestID) == (10..<210).map { UInt32($0) })
        #expect(received.allSatisfy { $0.message.publishedSequence != nil })
        #expect(client.collector.received.last?.message.errorCode == .shuttingDown)
        _ = storage
    }
}

/// `receive(_:deferringWaitsTo:)`, as an event loop uses it: only what never waits is done at once.
struct DeferredReceiveTests {
    private final class DeferredWork: @unchecked Sendable {
        var pieces: [@Sendable () -> Void] = []
    }

    @Test func pingsAndPublishesToKnownStreamsAreDoneAtOnceAndTheRestIsDeferredInOrder() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        try client.publish([0], to: "known")
        // Its reply is out before the session counts it answered; a ping now must find nothing pending.
        client.session.pipelinedReplies.waitUntilAnswered()
        let deferred = DeferredWork()
        var bytes = try ClientMessage.ping(nonce: 1).encoded(requestID: 10)
        bytes += try ClientMessage.publish(.init(stream: "known", payload: [1])).encoded(requestID: 11)
        bytes += try ClientMessage.getStreamInfo(name: "known").encoded(requestID: 12)
        bytes += try ClientMessage.ping(nonce: 2).encoded(requestID: 13)
        client.session.receive(bytes) { deferred.pieces.append($0) }
        let early = try client.replies(from: 10, count: 2)
        #expect(early.map(\.requestID) == [10, 11])
        #expect(early[1].message.publishedSequence == 2)
        #expect(deferred.pieces.count == 1)
        #expect(client.collector.received.filter { $0.requestID >= 12 }.isEmpty)
        deferred.pieces[0]()
        let all = try client.replies(from: 10, count: 4)
        #expect(all.map(\.requestID) == [10, 11, 12, 13])
        _ = storage
    }

    @Test func aPublishThatMustCreateItsStreamIsDeferred() throws {
        let (hub, storage) = try makeHub()
        let client = try TestClient.connected(to: hub)
        let deferred = DeferredWork()
        client.session.receive(try ClientMessage.publish(.init(stream: "new", payload: [1])).encoded(requestID: 10)) {
            deferred.pieces.append($0)
        }
        #expect(deferred.pieces.count == 1)
        #expect(try storage.log.streamInfo("new") == nil)
        deferred.pieces[0]()
        #expect(try client.replies(from: 10, count: 1)[0].message.publishedSequence == 1)
    }
}
