import EventLog
import Foundation
import Synchronization
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// An event log in a fresh temporary directory, removed when the value goes away.
final class TemporaryLog: Sendable {
    let directory: String
    let log: EventLog

    init() throws {
        directory = NSTemporaryDirectory() + "streamserver-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        log = try EventLog(path: directory + "/log.sqlite")
    }

    deinit {
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Collects a session's output frames, decoding them with the protocol's own decoder and messages.
///
/// `@unchecked Sendable` is safe because every stored property is touched only while `condition`
/// is locked.
final class FrameCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))
    private var frames: [Received] = []
    private var problems: [String] = []
    /// The protocol version the server's `WELCOME` agreed, in whose layouts later frames are read.
    private var agreedVersion = ProtocolVersions.newest

    /// Takes the bytes of one `output` call.
    func take(_ bytes: [UInt8]) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        decoder.append(bytes)
        do {
            while let frame = try decoder.next() {
                let message = try ServerMessage(frame, version: agreedVersion)
                if case let .welcome(agreed, _, _, _) = message { agreedVersion = agreed }
                frames.append(Received(requestID: frame.requestID, message: message))
            }
        } catch {
            problems.append("\(error)")
        }
    }

    /// The protocol version agreed in the handshake (the newest before it).
    var version: UInt16 {
        condition.lock()
        defer { condition.unlock() }
        return agreedVersion
    }

    /// Every frame received so far.
    var received: [Received] {
        condition.lock()
        defer { condition.unlock() }
        return frames
    }

    /// Bytes that did not decode as server frames (none, in a correct server).
    var decodingProblems: [String] {
        condition.lock()
        defer { condition.unlock() }
        return problems
    }

    /// Waits (up to `timeout` seconds) until `done` holds for the frames received, and returns them;
    /// nil on timeout. Waiting is on a condition signalled by each output, never a sleep.
    func wait(timeout: TimeInterval = 20, until done: ([Received]) -> Bool) -> [Received]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(frames) {
            guard condition.wait(until: deadline) else { return done(frames) ? frames : nil }
        }
        return frames
    }
}

/// A client of a session in the same process: it sends encoded frames and reads decoded replies.
final class TestClient: Sendable {
    let collector = FrameCollector()
    let session: ConnectionSession
    private let nextRequestID = Mutex<UInt32>(1)

    /// A client of `hub`, held to `access` when given.
    init(hub: StreamHub, access: ConnectionAccess? = nil) {
        let collector = self.collector
        session = ConnectionSession(hub: hub, access: access) { bytes in collector.take(bytes) }
    }

    /// A client that has said HELLO and got WELCOME.
    static func connected(to hub: StreamHub, access: ConnectionAccess? = nil) throws -> TestClient {
        let client = TestClient(hub: hub, access: access)
        let reply = try client.request(.hello(minVersion: 1, maxVersion: 1, clientName: "test"))
        guard case .welcome = reply else { throw TestFailure("no WELCOME: \(reply)") }
        return client
    }

    func makeRequestID() -> UInt32 {
        nextRequestID.withLock { id in
            defer { id += 1 }
            return id
        }
    }

    /// Sends `message` under a fresh request id and returns that id.
    @discardableResult
    func send(_ message: ClientMessage) throws -> UInt32 {
        let id = makeRequestID()
        session.receive(try message.encoded(requestID: id, version: collector.version))
        return id
    }

    /// Sends `message` and waits for the first reply to it that is not `EVENTS`.
    func request(_ message: ClientMessage) throws -> ServerMessage {
        let id = try send(message)
        guard let frames = collector.wait(until: { $0.contains { $0.requestID == id && !$0.message.isEvents } }) else {
            throw TestFailure("no reply to \(message)")
        }
        return frames.first { $0.requestID == id && !$0.message.isEvents }!.message
    }

    /// Waits for `count` replies (not `EVENTS`) to requests with ids from `firstID` on, and returns
    /// them in arrival order: pipelined publishes are answered after their commit, not by `receive`.
    func replies(from firstID: UInt32, count: Int) throws -> [Received] {
        func matching(_ frames: [Received]) -> [Received] { frames.filter { $0.requestID >= firstID && !$0.message.isEvents } }
        guard let frames = collector.wait(until: { matching($0).count >= count }) else {
            throw TestFailure("got \(matching(collector.received).count) of \(count) replies from request \(firstID)")
        }
        return matching(frames)
    }

    /// The events received on subscription `id`, in arrival order.
    func events(of id: UInt32) -> [WireEvent] {
        collector.received.flatMap { frame -> [WireEvent] in
            if case let .events(subscription, events) = frame.message, subscription == id { return events }
            return []
        }
    }

    /// Waits until subscription `id` has received `count` events and returns them.
    func waitForEvents(of id: UInt32, count: Int) throws -> [WireEvent] {
        _ = collector.wait { frames in
            frames.reduce(0) { total, frame in
                if case let .events(subscription, events) = frame.message, subscription == id { return total + events.count }
                return total
            } >= count
        }
        let events = events(of: id)
        guard events.count >= count else { throw TestFailure("subscription \(id) got \(events.count) of \(count) events") }
        return events
    }

    /// Publishes `payload` and returns the sequence it got.
    @discardableResult
    func publish(_ payload: [UInt8], to stream: String) throws -> UInt64 {
        let reply = try request(.publish(.init(stream: stream, payload: payload)))
        guard case let .published(sequence, _, _) = reply else { throw TestFailure("publish failed: \(reply)") }
        return sequence
    }
}


/// A hub over a temporary log.
func makeHub(_ configure: (inout ServerLimits) -> Void = { _ in }) throws -> (StreamHub, TemporaryLog) {
    let storage = try TemporaryLog()
    var limits = ServerLimits()
    configure(&limits)
    return (StreamHub(log: storage.log, limits: limits), storage)
}

/// Payload bytes for event number `index`.
func payload(_ index: Int) -> [UInt8] { Array("event-\(index)".utf8) }
