import Foundation
import StreamProtocol

/// A blocking client over a plain POSIX Unix socket, speaking through StreamProtocol's encoder and
/// decoder; every read gives up after `timeout` seconds so a broken server fails the test, not hangs it.
///
/// Thread-safety: not Sendable in spirit; one test uses it from one task at a time.
public final class SocketClient: @unchecked Sendable {
    public let descriptor: Int32
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))
    /// The longest frame accepted from the server; a longer one makes `next()` throw, as a client
    /// enforcing the documented maximum would drop the connection.
    public var maximumReplyLength: Int = Int(UInt32.max) {
        didSet { decoder = FrameDecoder(maximumLength: maximumReplyLength) }
    }
    private var pending: [Received] = []
    private var nextRequestID: UInt32 = 1
    /// The protocol version the server's `WELCOME` agreed (the newest before it): requests are
    /// written, and replies read, in its layouts.
    public private(set) var version = ProtocolVersions.newest

    /// A socket not connected yet (see `connect(to:)`).
    public init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
    }

    public convenience init(path: String, timeout: Int = 10) throws {
        try self.init()
        try connect(to: path, timeout: timeout)
    }

    public func connect(to path: String, timeout: Int = 10) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            throw TestFailure("connect(\(path)) failed: \(reason)")
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Foundation.close(descriptor) }

    /// Says HELLO and expects WELCOME.
    public static func connected(to path: String, maxVersion: UInt16 = 1) throws -> SocketClient {
        let client = try SocketClient(path: path)
        let reply = try client.request(.hello(minVersion: 1, maxVersion: maxVersion, clientName: "socket-test"))
        guard case .welcome = reply else { throw TestFailure("no WELCOME: \(reply)") }
        return client
    }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestFailure("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Sends `message` under a fresh request id and returns the id.
    @discardableResult
    public func send(_ message: ClientMessage) throws -> UInt32 {
        let id = nextRequestID
        nextRequestID += 1
        try write(try message.encoded(requestID: id, version: version))
        return id
    }

    /// The next frame from the server; nil when the server closed the connection.
    public func next() throws -> Received? {
        if !pending.isEmpty { return pending.removeFirst() }
        while true {
            if let frame = try decoder.next() {
                let message = try ServerMessage(frame, version: version)
                if case let .welcome(agreed, _, _, _) = message { version = agreed }
                return Received(requestID: frame.requestID, message: message)
            }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestFailure("read failed: \(String(cString: strerror(errno)))") }
            decoder.append(buffer[..<count])
        }
    }

    /// Sends `message` and returns the first reply to it that is not EVENTS (earlier frames are kept).
    public func request(_ message: ClientMessage) throws -> ServerMessage {
        let id = try send(message)
        var skipped: [Received] = []
        defer { pending = skipped + pending }
        while let frame = try next() {
            if frame.requestID == id, !frame.message.isEvents { return frame.message }
            skipped.append(frame)
        }
        throw TestFailure("connection closed before a reply to \(message)")
    }

    /// Every frame until the server closes the connection.
    public func framesUntilClosed() throws -> [Received] {
        var frames: [Received] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }

    /// Publishes `payload` and returns its sequence.
    @discardableResult
    public func publish(_ payload: [UInt8], to stream: String) throws -> UInt64 {
        let reply = try request(.publish(.init(stream: stream, payload: payload)))
        guard case let .published(sequence, _, _) = reply else { throw TestFailure("publish failed: \(reply)") }
        return sequence
    }

    /// Reads until subscription `id` has delivered `count` events, and returns them.
    public func events(of id: UInt32, count: Int) throws -> [WireEvent] {
        var events: [WireEvent] = []
        while events.count < count {
            guard let frame = try next() else { throw TestFailure("closed after \(events.count) of \(count) events") }
            if case let .events(subscription, batch) = frame.message, subscription == id { events += batch }
        }
        return events
    }
}
