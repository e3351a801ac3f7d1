import Foundation
import Logging
import ServiceLifecycle
import StreamProtocol
import Testing

@testable import StreamServer

/// A fresh directory under /tmp with a short name, so socket paths stay far below the 108-byte limit.
final class ShortTemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/sd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    var socket: String { path + "/s.sock" }
    var database: String { path + "/db.sqlite" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A blocking client over a plain POSIX Unix socket, speaking through StreamProtocol's encoder and
/// decoder; every read gives up after `timeout` seconds so a broken server fails the test, not hangs it.
///
/// Thread-safety: not Sendable in spirit; one test uses it from one task at a time.
final class SocketClient: @unchecked Sendable {
    let descriptor: Int32
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))
    private var pending: [Received] = []
    private var nextRequestID: UInt32 = 1

    /// A socket not connected yet (see `connect(to:)`).
    init() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
    }

    convenience init(path: String, timeout: Int = 10) throws {
        try self.init()
        try connect(to: path, timeout: timeout)
    }

    func connect(to path: String, timeout: Int = 10) throws {
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
    static func connected(to path: String) throws -> SocketClient {
        let client = try SocketClient(path: path)
        let reply = try client.request(.hello(minVersion: 1, maxVersion: 1, clientName: "socket-test"))
        guard case .welcome = reply else { throw TestFailure("no WELCOME: \(reply)") }
        return client
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestFailure("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Sends `message` under a fresh request id and returns the id.
    @discardableResult
    func send(_ message: ClientMessage) throws -> UInt32 {
        let id = nextRequestID
        nextRequestID += 1
        try write(try message.encoded(requestID: id))
        return id
    }

    /// The next frame from the server; nil when the server closed the connection.
    func next() throws -> Received? {
        if !pending.isEmpty { return pending.removeFirst() }
        while true {
            if let frame = try decoder.next() {
                return Received(requestID: frame.requestID, message: try ServerMessage(frame))
            }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestFailure("read failed: \(String(cString: strerror(errno)))") }
            decoder.append(buffer[..<count])
        }
    }

    /// Sends `message` and returns the first reply to it that is not EVENTS (earlier frames are kept).
    func request(_ message: ClientMessage) throws -> ServerMessage {
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
    func framesUntilClosed() throws -> [Received] {
        var frames: [Received] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }

    /// Publishes `payload` and returns its sequence.
    @discardableResult
    func publish(_ payload: [UInt8], to stream: String) throws -> UInt64 {
        let reply = try request(.publish(.init(stream: stream, payload: payload)))
        guard case let .published(sequence, _, _) = reply else { throw TestFailure("publish failed: \(reply)") }
        return sequence
    }

    /// Reads until subscription `id` has delivered `count` events, and returns them.
    func events(of id: UInt32, count: Int) throws -> [WireEvent] {
        var events: [WireEvent] = []
        while events.count < count {
            guard let frame = try next() else { throw TestFailure("closed after \(events.count) of \(count) events") }
            if case let .events(subscription, batch) = frame.message, subscription == id { events += batch }
        }
        return events
    }
}

/// Reads a client's frames until the server closes, on a thread of its own: a blocking read on the
/// Swift concurrency pool could starve the server's tasks while tests run in parallel.
///
/// `@unchecked Sendable` is safe because `result` is written once before `done` is signalled and read after.
final class BackgroundReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<[Received], any Error> = .success([])

    init(_ client: SocketClient) {
        Thread.detachNewThread { [self] in
            result = Result { try client.framesUntilClosed() }
            done.signal()
        }
    }

    /// Waits for the close and returns every frame read.
    func frames() throws -> [Received] {
        done.wait()
        return try result.get()
    }
}

/// Runs a `StreamServer` on a short temporary socket under a ServiceGroup for the duration of `body`,
/// then shuts it down gracefully and waits for `run` to return.
func withServer(
    in directory: ShortTemporaryDirectory? = nil,
    configure: (inout StreamServerConfiguration) -> Void = { _ in },
    _ body: (StreamServer, ShortTemporaryDirectory) async throws -> Void
) async throws {
    let directory = try directory ?? ShortTemporaryDirectory()
    var configuration = StreamServerConfiguration(socketPath: directory.socket, databasePath: directory.database)
    configure(&configuration)
    var logger = Logger(label: "streamd-test")
    logger.logLevel = .critical
    let server = StreamServer(configuration: configuration, logger: logger)
    let group = ServiceGroup(configuration: .init(services: [.init(service: server)], logger: logger))
    let running = Task { try await group.run() }
    do {
        try await server.waitUntilListening()
        try await body(server, directory)
    } catch {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        throw error
    }
    await group.triggerGracefulShutdown()
    try await running.value
}
