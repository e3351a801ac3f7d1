import Foundation

/// The listening socket a service manager opened for the daemon and passed to it (socket activation,
/// the `sd_listen_fds` protocol): descriptor 3, announced by `LISTEN_FDS` (how many) and `LISTEN_PID`
/// (for which process).
///
/// A server given one adopts it instead of binding its own socket, and leaves its file in place when
/// it stops: the file belongs to whoever created it (systemd's `.socket` unit), which keeps listening
/// and starts the daemon again on the next connection.
///
/// Thread-safety: Sendable and immutable.
public struct InheritedListener: Sendable {
    /// The first descriptor passed (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// The descriptor of the listening socket.
    public let descriptor: Int32
    /// The path the socket is bound to (`@name` for an abstract one); nil when it has no name.
    public let path: String?

    /// The socket passed in `environment`, or nil when none was passed to this process (no
    /// `LISTEN_FDS`, or a `LISTEN_PID` naming another process, as when a parent's variables leak).
    ///
    /// Only the first descriptor is used; further ones are left alone.
    /// - Throws: `StreamServerError` of kind `inheritedSocket` when `LISTEN_FDS` is not a count, or
    ///   descriptor 3 is not a listening Unix domain stream socket.
    public static func passed(in environment: [String: String]) throws -> InheritedListener? {
        guard let pidText = environment["LISTEN_PID"], let countText = environment["LISTEN_FDS"] else { return nil }
        guard let pid = Int32(pidText), pid == getpid() else { return nil }
        guard let count = Int(countText), count >= 0 else {
            throw StreamServerError(.inheritedSocket, "LISTEN_FDS=\(countText) is not a number of descriptors; the service manager's socket activation is misconfigured.")
        }
        guard count >= 1 else { return nil }
        return try InheritedListener(checking: firstDescriptor)
    }

    /// The listening socket at `descriptor`, once checked to be a Unix domain stream socket that
    /// listens; the descriptor is marked close-on-exec.
    ///
    /// - Throws: `StreamServerError` of kind `inheritedSocket` saying what the descriptor is instead.
    public init(checking descriptor: Int32) throws {
        let advice = "streamd needs a listening Unix domain stream socket there: give the socket unit a ListenStream= with a path (and no Accept=yes), or start streamd without LISTEN_FDS."
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw StreamServerError(.inheritedSocket, "the service manager said it passed a socket (LISTEN_FDS), but descriptor \(descriptor) is not open: \(String(cString: strerror(errno))). \(advice)")
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw StreamServerError(.inheritedSocket, "descriptor \(descriptor) passed by the service manager (LISTEN_FDS) is \(Self.kind(of: info.st_mode)), not a socket. \(advice)")
        }
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard option(SO_DOMAIN) == AF_UNIX else {
            throw StreamServerError(.inheritedSocket, "descriptor \(descriptor) passed by the service manager (LISTEN_FDS) is a network socket, not a Unix domain socket. \(advice)")
        }
        guard option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw StreamServerError(.inheritedSocket, "descriptor \(descriptor) passed by the service manager (LISTEN_FDS) is a Unix datagram or sequential-packet socket, not a stream socket. \(advice)")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw StreamServerError(.inheritedSocket, "descriptor \(descriptor) passed by the service manager (LISTEN_FDS) is a Unix stream socket that does not listen (a single connection, as Accept=yes passes, or an unbound socket). \(advice)")
        }
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        self.descriptor = descriptor
        self.path = Self.boundPath(of: descriptor)
    }

    /// The name `descriptor` is bound to, `@name` for an abstract one, nil for none.
    private static func boundPath(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        guard named == 0, Int(length) > offset else { return nil }
        var bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(Int(length) - offset)) }
        if bytes.first == 0 {
            bytes[0] = UInt8(ascii: "@")
        } else if let end = bytes.firstIndex(of: 0) {
            bytes = Array(bytes[..<end])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What a descriptor of file mode `mode` is, in words.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device (such as /dev/null or a terminal)"
        case S_IFIFO: "a pipe"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a socket"
        }
    }
}
