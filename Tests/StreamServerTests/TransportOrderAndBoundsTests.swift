import Dispatch
import EventLog
import Foundation
import StreamProtocol
import StreamdTestSupport
import Synchronization
import Testing

@testable import StreamServer

/// What the event loop's own handling of pipelined publishes must keep: replies in request order on
/// the wire, a bound on what a fast client can hand the daemon, and publishes racing a delete.
struct TransportOrderAndBoundsTests {
    @Test func repliesOnTheWireKeepRequestOrderUnderPipelinedLoad() throws {
        let (hub, storage) = try makeHub()
        let directory = try ShortTemporaryDirectory()
        let server = try LoopServer(hub: hub, path: directory.socket)
        defer { server.stop() }
        let disorder = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            do {
                let socket = try SocketClient.connected(to: directory.socket)
                let pipelining = client < 2
                var nextID: UInt32 = 10
                let reader = BackgroundWork { () throws -> String? in
                    var expected: UInt32 = 10
                    var seen = 0
                    let total = pipelining ? 20 * 200 : 20 * 100 * 2
                    while seen < total {
                        guard let frame = try socket.next() else { throw TestFailure("closed after \(seen) replies") }
                        if frame.requestID != expected { return "client \(client): reply \(frame.requestID) where \(expected) was due" }
                        expected += 1
                        seen += 1
                    }
                    return nil
                }
                for _ in 0..<20 {
                    var bytes: [UInt8] = []
                    for _ in 0..<(pipelining ? 200 : 100) {
                        bytes += try ClientMessage.publish(.init(stream: "s\(client % 2)", payload: Array(repeating: 7, count: 200))).encoded(requestID: nextID)
                        nextID += 1
                        if !pipelining {
                            bytes += try ClientMessage.ping(nonce: 1).encoded(requestID: nextID)
                            nextID += 1
                        }
                    }
                    try socket.write(bytes)
                    usleep(1_000)
                }
                if let problem = try reader.result(within: 60) { disorder.withLock { $0.append(problem) } }
            } catch {
                disorder.withLock { $0.append("client \(client): \(error)") }
            }
        }
        #expect(disorder.withLock { $0 } == [])
        _ = storage
    }

    /// How many bytes of `frames`, sent again and again (up to 64 MiB), a daemon whose log commits
    /// nothing takes before its client's sending stalls for 3 s.
    private func bytesTakenWhileTheLogIsHeld(sending frames: [UInt8]) throws -> Int {
        let (hub, storage) = try makeHub()
        let directory = try ShortTemporaryDirectory()
        let server = try LoopServer(hub: hub, path: directory.socket)
        defer { server.stop() }
        let socket = try SocketClient.connected(to: directory.socket)
        try socket.publish([1], to: "p")
        let hold = try WriterHold(storage.log)
        defer { hold.release() }
        var limit = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < 64 << 20 {
            let written = frames.withUnsafeBytes { send(socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            sent += written
        }
        return sent
    }

    @Test func aClientPipeliningWhileTheLogIsHeldIsNotReadWithoutBound() throws {
        let frame = try ClientMessage.publish(.init(stream: "p", payload: Array(repeating: 1, count: 1024))).encoded(requestID: 5)
        let sent = try bytesTakenWhileTheLogIsHeld(sending: Array([[UInt8]](repeating: frame, count: 64).joined()))
        // The daemon holds at most its pipelining bound, its four queued reads and the socket's buffers.
        #expect(sent < 16 << 20, "the daemon took \(sent >> 20) MiB of publishes while its log committed nothing")
    }

    @Test func batchesOfEmptyEventsWhileTheLogIsHeldAreNotReadWithoutBound() throws {
        // Some 1 MB on the wire each, 200 000 events that carry no bytes of payload.
        let entries = [ClientMessage.PublishBatch.Entry](repeating: .init(payload: []), count: 200_000)
        let sent = try bytesTakenWhileTheLogIsHeld(sending: try ClientMessage.publishBatch(.init(stream: "p", entries: entries)).encoded(requestID: 5))
        #expect(sent < 16 << 20, "the daemon took \(sent >> 20) MiB of empty events while its log committed nothing")
    }

    /// Runs `body` with a daemon whose log holds a hundred streams with long names, so that a
    /// `LIST_STREAMS` of 10 bytes is answered with some 25 KB, and a client of it.
    private func withListingDaemon(_ body: (LoopServer, SocketClient) throws -> Void) throws {
        let (hub, storage) = try makeHub()
        for index in 0..<100 { _ = try storage.log.createStream(String(repeating: "n", count: 190) + "\(index)") }
        let directory = try ShortTemporaryDirectory()
        let server = try LoopServer(hub: hub, path: directory.socket)
        defer { server.stop() }
        try body(server, try SocketClient.connected(to: directory.socket))
        _ = storage
    }

    /// `count` `LIST_STREAMS` requests, with ids from 100 on.
    private func listings(_ count: Int) throws -> [UInt8] {
        try (0..<count).reduce(into: []) { bytes, index in bytes += try ClientMessage.listStreams.encoded(requestID: UInt32(100 + index)) }
    }

    @Test func aClientThatReadsNoRepliesMakesTheDaemonHoldNoMoreOfThemThanItsOutputBound() throws {
        try withListingDaemon { server, socket in
            let requests = 1_000
            try socket.write(try listings(requests))
            // Nothing is read: what the socket does not take waits in the connection's outbox.
            let outbox = try #require(server.connections.all.first).outbox
            var largest = 0
            let deadline = ContinuousClock.now + .seconds(2)
            while ContinuousClock.now < deadline {
                largest = max(largest, outbox.backlog)
                usleep(2_000)
            }
            #expect(largest > ReplyOutbox.lowWater, "the replies never backed up (\(largest) bytes): the test shows nothing")
            #expect(largest < ReplyOutbox.highWater + (256 << 10), "the daemon held \(largest >> 10) KiB of replies nobody read")
            // Once the client reads, every request is answered, in order.
            var answered: [UInt32] = []
            while answered.count < requests, let frame = try socket.next() { answered.append(frame.requestID) }
            #expect(answered == (0..<requests).map { UInt32(100 + $0) })
        }
    }

    @Test func aConnectionClosedForAProtocolErrorClosesThoughItsClientReadsNothing() throws {
        try withListingDaemon { server, socket in
            // Some 500 KB of replies, more than the socket takes and too little to back the outbox
            // up, then a frame of no known type: the session closes with its last replies unsent.
            try socket.write(try listings(20) + Frame(type: 0x7E, requestID: 99, body: []).encoded)
            let connection = try #require(pollUntil { !server.connections.all.isEmpty } ? server.connections.all.first : nil)
            #expect(pollUntil { connection.session.isClosed })
            let closed = pollUntil(timeout: .seconds(15)) { !connection.channel.isActive }
            #expect(closed, "the connection stayed open while its client read nothing")
            if closed { _ = try socket.framesUntilClosed() }
        }
    }

    @Test func aClientThatReadsNothingCannotKeepAHalfSentFrameForEver() throws {
        let (hub, storage) = try makeHub { $0.connections.frameTimeout = .seconds(2) }
        _ = try storage.log.createStream("s")
        let directory = try ShortTemporaryDirectory()
        let server = try LoopServer(hub: hub, path: directory.socket)
        defer { server.stop() }
        let reader = try SocketClient.connected(to: directory.socket)
        guard case .subscribed = try reader.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .newOnly, credit: .max))) else {
            throw TestFailure("not subscribed")
        }
        // Half of a 1 MiB frame (its bytes count against the budget all connections share), then
        // 4 MiB of events it does not read: its output backs up, so the daemon stops reading it.
        let frame = try ClientMessage.publish(.init(stream: "s", payload: Array(repeating: 7, count: 1 << 20))).encoded(requestID: 9)
        try reader.write(Array(frame.prefix(frame.count / 2)))
        let publisher = try SocketClient.connected(to: directory.socket)
        let entries = (0..<40).map { _ in ClientMessage.PublishBatch.Entry(payload: Array(repeating: 1, count: 100_000)) }
        guard case .publishedBatch = try publisher.request(.publishBatch(.init(stream: "s", entries: entries))) else {
            throw TestFailure("the batch was not published")
        }
        let connection = try #require(server.connections.all.first)
        #expect(pollUntil(timeout: .seconds(15)) { !connection.channel.isActive }, "a half-sent frame was kept while its client read nothing")
        _ = storage
    }

    @Test func aPublishRacingADeleteCreatesTheStreamAgain() throws {
        let (hub, storage) = try makeHub()
        let publisher = try TestClient.connected(to: hub)
        let deleter = try TestClient.connected(to: hub)
        try publisher.publish([1], to: "d")
        let hold = try WriterHold(storage.log)
        // The delete takes the stream's lock and waits for the writer; the publish then waits for the lock.
        let deleteID = deleter.makeRequestID()
        Thread.detachNewThread { deleter.session.receive((try? ClientMessage.deleteStream(name: "d").encoded(requestID: deleteID)) ?? []) }
        let entry = hub.entry(for: "d")
        #expect(pollUntil { entry.window.withLockIfAvailable { _ in } == nil }, "the delete never took the stream's lock")
        let publishID = publisher.makeRequestID()
        Thread.detachNewThread { publisher.session.receive((try? ClientMessage.publish(.init(stream: "d", payload: [2])).encoded(requestID: publishID)) ?? []) }
        usleep(200_000)  // time for the publish to reach the lock (should it not, it comes after the delete: the same outcome)
        hold.release()
        #expect(try deleter.replies(from: deleteID, count: 1)[0].message == .ok)
        #expect(try publisher.replies(from: publishID, count: 1)[0].message.publishedSequence == 1)
    }
}
