#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who is on the other end of a connected Unix domain socket, as the kernel says (`SO_PEERCRED`):
/// the process id, user id and group id it had when it connected or listened.
///
/// Identity comes only from here, never from anything a peer sends: the daemon uses it to decide
/// what a client may do, and the client to check that the daemon is who it should be.
/// Values are Sendable.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's user id.
    public var uid: UInt32
    /// The peer's primary group id.
    public var gid: UInt32

    /// Credentials with these ids.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Linux's `struct ucred`: `{ pid, uid, gid }` as three 32-bit integers (Glibc's Swift overlay
    /// does not export the struct, which needs `_GNU_SOURCE`).
    public struct Raw: Sendable {
        public var pid: Int32 = 0
        public var uid: UInt32 = 0
        public var gid: UInt32 = 0

        /// Zeroes, to be filled by `getsockopt`.
        public init() {}
    }

    /// The socket option (`SO_PEERCRED`, at level `SOL_SOCKET`) that reads a `Raw`.
    public static let socketOption: Int32 = SO_PEERCRED

    /// The credentials of the peer of the connected Unix socket `descriptor`, or nil when the kernel
    /// gives none (not a Unix socket, or not connected).
    public init?(socket descriptor: Int32) {
        var raw = Raw()
        var length = socklen_t(MemoryLayout<Raw>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0 else { return nil }
        self.init(raw)
    }

    /// The credentials in `raw`, or nil when they name no process (an unconnected socket).
    public init?(_ raw: Raw) {
        guard raw.pid > 0 else { return nil }
        self.init(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }

    /// `uid 1000, gid 1000, pid 4242`.
    public var description: String { "uid \(uid), gid \(gid), pid \(pid)" }
}
