/// The limits on the connections a server keeps: their number, in total and per user, how long each
/// may take to say HELLO, to finish a frame and to stay idle, and the bytes all of them together may
/// buffer of frames not yet complete.
///
/// The defaults keep a daemon that every local user may reach within about 256 MiB and its
/// descriptors, whatever the clients do. Values are Sendable.
public struct ConnectionLimits: Sendable, Hashable {
    /// The most connections served at once; one more is refused with `ERROR limit_exceeded`.
    /// The server lowers it to what its descriptor limit leaves room for (see `StreamServer`).
    public var maximumConnections: Int = 1024
    /// The most connections one user (by the uid the kernel gives) may hold at once.
    public var maximumConnectionsPerUser: Int = 256
    /// How long a new connection may take to send `HELLO` before it is closed.
    public var handshakeTimeout: Duration = .seconds(10)
    /// How long a connection with no subscription and no request in progress may send nothing
    /// before it is closed; zero keeps such connections forever.
    public var idleTimeout: Duration = .seconds(300)
    /// How long one frame may take to arrive once its first bytes have, before the connection is closed.
    public var frameTimeout: Duration = .seconds(30)
    /// The most bytes all connections together may buffer of frames they have begun and not finished,
    /// beyond the 64 KiB each connection may keep for small frames; a connection whose frame would
    /// pass it is closed with `ERROR limit_exceeded`.
    public var maximumPartialFrameBytes: Int = 64 * 1024 * 1024

    /// The defaults: 1024 connections, 256 per user, 10 s to say HELLO, 5 min idle, 30 s per frame,
    /// 64 MiB of partial frames.
    public init() {}
}
