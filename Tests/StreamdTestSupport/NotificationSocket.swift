import Foundation

/// A Unix datagram socket bound at a path or an abstract name, standing in for systemd's
/// notification socket (`NOTIFY_SOCKET`): it receives what a daemon reports with `sd_notify`.
///
/// Thread-safety: `@unchecked Sendable` because its one mutable resource, the descriptor, is only
/// read from; `receive` may be called from one thread at a time.
public final class NotificationSocket: @unchecked Sendable {
    /// The socket's name as `NOTIFY_SOCKET` gives it: a path, or `@name` for an abstract socket.
    public let name: String
    private let descriptor: Int32

    /// A datagram socket bound at `name` (`/path`, or `@name` for the abstract namespace).
    public init(name: String) throws {
        self.name = name
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TestFailure("bind \(name): \(reason)")
        }
    }

    /// The next datagram as text, or nil when none comes within `timeout` seconds.
    public func receive(timeout: Int = Int(patience.timeInterval)) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(descriptor)
        if !name.hasPrefix("@") { unlink(name) }
    }
}
