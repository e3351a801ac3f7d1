import Foundation
import StreamProtocol

/// A blocking protocol client on one Unix socket, as thin as hiredis: encode, write, wait, read, decode.
/// The peers' benchmarks use plain C clients, so streamd's figures come from a client of the same weight.
///
/// Thread-safety: not Sendable in spirit; each socket is used by one thread at a time.
final class BenchSocket: @unchecked Sendable {
    let descriptor: Int32
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var nextRequestID: UInt32 = 1
    /// The protocol version the daemon's `WELCOME` agreed (the newest before it), in whose layouts
    /// requests are written and replies read.
    private var version = ProtocolVersions.newest

    /// Connects to `path` and completes the handshake, speaking protocol `version`.
    init(path: String, version: UInt16 = 1) throws {
        descriptor = try Self.connected(to: path)
        let reply = try request(.hello(minVersion: 1, maxVersion: version, clientName: "streambench"))
        guard case .welcome = reply else { throw BenchFailure("no WELCOME: \(reply)") }
    }

    deinit { close(descriptor) }

    /// A descriptor connected to the Unix socket at `path`, with nothing sent yet.
    static func connected(to path: String) throws -> Int32 {
        let descriptor = try unixSocket()
        guard withUnixAddress(path, { connect(descriptor, $0, $1) }) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchFailure("connect(\(path)) failed: \(reason)")
        }
        return descriptor
    }

    /// A new Unix stream socket's descriptor.
    static func unixSocket() throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket() failed: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    /// What `body` returns given the address of the Unix socket at `path` and its length.
    static func withUnixAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Writes `message` under a fresh request id, without waiting for its reply.
    @discardableResult
    func send(_ message: ClientMessage) throws -> UInt32 {
        let id = takeRequestID()
        try write(try message.encoded(requestID: id, version: version))
        return id
    }

    /// A fresh request id, for a frame encoded by the caller.
    func takeRequestID() -> UInt32 {
        defer { nextRequestID &+= 1 }
        return nextRequestID
    }

    /// Writes bytes already encoded (several frames at once, say).
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw BenchFailure("write failed: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next frame from the server.
    func next() throws -> (requestID: UInt32, message: ServerMessage) {
        while true {
            if let frame = try nextBuffered() { return frame }
            try fill()
        }
    }

    /// The next frame already received, without reading the socket.
    func nextBuffered() throws -> (requestID: UInt32, message: ServerMessage)? {
        guard let frame = try decoder.next() else { return nil }
        return (frame.requestID, try message(of: frame))
    }

    /// Every whole frame buffered; reads once (blocking) first if none is.
    func readFrames() throws -> [(requestID: UInt32, message: ServerMessage)] {
        var frames: [(UInt32, ServerMessage)] = []
        while frames.isEmpty {
            while let frame = try decoder.next() { frames.append((frame.requestID, try message(of: frame))) }
            if frames.isEmpty { try fill() }
        }
        return frames
    }

    /// Waits until the socket is readable, then reads. A thread asleep in `read` is woken each time
    /// the daemon consumes one of its requests (the socket's write space frees up), to find nothing;
    /// one asleep in `poll` for input is not, as StreamClient's event loop (epoll) is not. That
    /// useless wake took ~10 µs of the daemon's time per round trip on this machine.
    private func fill() throws {
        var readable = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&readable, 1, -1) < 0, errno == EINTR {}
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw BenchFailure(count == 0 ? "the daemon closed the connection" : "read failed: \(String(cString: strerror(errno)))") }
        decoder.append(buffer[..<count])
    }

    /// Sends `message` and waits for its reply.
    func request(_ message: ClientMessage) throws -> ServerMessage {
        let id = try send(message)
        while true {
            let (requestID, reply) = try next()
            if requestID == id, case .events = reply { continue }
            if requestID == id { return reply }
        }
    }

    /// The message `frame` carries, read in the agreed version's layout (a `WELCOME` sets it).
    private func message(of frame: Frame) throws -> ServerMessage {
        let message = try ServerMessage(frame, version: version)
        if case let .welcome(agreed, _, _, _) = message { version = agreed }
        return message
    }
}

/// What went wrong in a benchmark run.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
