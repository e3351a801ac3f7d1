/// Why a client connection ended, as the daemon's log says it.
///
/// Values are Sendable.
enum ConnectionEnd: String, Sendable {
    /// The client closed its end (or the connection was lost).
    case clientClosed = "client closed"
    /// No `HELLO` within the handshake timeout.
    case handshakeTimeout = "handshake timeout"
    /// A frame did not arrive whole within the frame timeout.
    case frameTimeout = "frame timeout"
    /// Nothing sent and nothing in progress for the idle timeout.
    case idleTimeout = "idle timeout"
    /// Another limit (the bytes of unfinished frames all connections may hold).
    case limit = "limit"
    /// The client sent bytes that are not the protocol (a fatal protocol error).
    case protocolError = "protocol error"
    /// The daemon is shutting down.
    case daemonStopping = "daemon stopping"
}
