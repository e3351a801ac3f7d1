import Foundation

/// Tells the service manager (systemd, for a `Type=notify` unit) how the daemon is doing, by the
/// `sd_notify` protocol: one datagram of `KEY=VALUE` lines sent to the Unix socket named in
/// `$NOTIFY_SOCKET`, a file path or, when it starts with `@`, an abstract socket.
///
/// Written here rather than linked from libsystemd: the protocol is one `sendto`, and the daemon
/// runs the same without systemd. A failed send is reported to the caller, who logs it and goes on,
/// as `sd_notify` callers do: the service manager's bookkeeping is never a reason to stop serving.
///
/// Thread-safety: Sendable and immutable; `send` may be called from any thread.
public struct ServiceManagerNotifier: Sendable {
    /// The variable naming the service manager's notification socket.
    public static let socketVariable = "NOTIFY_SOCKET"

    /// The socket notifications go to, as given (`/path` or `@abstract`).
    public let socketPath: String

    /// A notifier for the socket named in `environment`'s `NOTIFY_SOCKET`; nil when it is unset or
    /// empty (the daemon was not started by a service manager that listens).
    public init?(environment: [String: String]) {
        guard let path = environment[Self.socketVariable], !path.isEmpty else { return nil }
        self.init(socketPath: path)
    }

    /// A notifier for the socket at `socketPath` (`/path` or `@abstract`).
    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The daemon listens and serves: `READY=1`, with a one-line status for `systemctl status`.
    public static func ready(status: String) -> String { "READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())" }

    /// The daemon has begun to stop: `STOPPING=1`, with a one-line status.
    public static func stopping(status: String) -> String { "STOPPING=1\nSTATUS=\(status)" }

    /// Sends `message` (newline-separated `KEY=VALUE` assignments) as one datagram.
    ///
    /// - Throws: `StreamServerError` of kind `system` naming the socket and the reason when the
    ///   socket cannot be reached.
    public func send(_ message: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        // An abstract address starts with a NUL byte and is exactly as long as its name.
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, abstract || bytes.first == UInt8(ascii: "/") else {
            throw StreamServerError(.system, "\(Self.socketVariable)=\(socketPath) is not a socket path streamd can send to (an absolute path or @name shorter than \(capacity) bytes); the service manager will not hear that streamd is ready.")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)

        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw StreamServerError(.system, "cannot create a socket to notify the service manager: \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                payload.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, socklen_t(length)) }
            }
        }
        guard sent == payload.count else {
            throw StreamServerError(.system, "cannot notify the service manager on \(socketPath): \(sent < 0 ? String(cString: strerror(errno)) : "the message was cut short").")
        }
    }
}
