import StreamProtocol

/// What can go wrong talking to `streamd`; every case says what happened and, where it helps, what to do.
///
/// Its door: every call on a `StreamConnection`, its producers (`subscribe`) and its async sequences
/// (`values(of:in:)`, `events(of:in:)`, `events(in:)`, `history(of:)`, whose `Failure` it is, so a
/// `catch` needs no cast) throw or fail with this and nothing else. A stream's stored failure is
/// `.streamFailed(message)`; a payload that does not decode is `.codec`. Remote subjects turn it into
/// `StreamFailure`: `.streamFailed(message)` becomes `StreamFailure(message)` (stored), any other case
/// `StreamFailure(origin: .storage)` with this error's description.
/// Values are immutable and Sendable.
public enum StreamClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens on the socket: the daemon is not running, or runs on another socket.
    case daemonNotRunning(socketPath: String, reason: String)
    /// The server answered a request with `ERROR`.
    case server(code: ErrorCode, message: String)
    /// The connection closed (or was closed) before the answer arrived.
    case connectionClosed(String)
    /// The server sent something this client cannot read, or an answer of the wrong kind.
    case protocolViolation(String)
    /// The stream ended with a stored failure; the message is the failure's.
    case streamFailed(String)
    /// The daemon ended the subscription: its stream was deleted, or it failed.
    case subscriptionEnded(reason: SubscriptionEndReason, message: String)
    /// A value could not be encoded or a payload could not be decoded with the codec given.
    case codec(String)
    /// A request was not sent because its frame is longer than the daemon accepts (it would close the
    /// connection); the connection goes on.
    case requestTooLarge(frameLength: Int, maximum: UInt32)
    /// The socket's directory or the process listening on it is not to be trusted (another user's);
    /// nothing was sent. The reason names the owner and what to do.
    case untrustedDaemon(socketPath: String, reason: String)

    /// Whether the error means the connection is gone (so reconnecting may help).
    public var isConnectionLoss: Bool {
        switch self {
        case .connectionClosed, .daemonNotRunning: true
        case let .server(code, _): code == .shuttingDown
        default: false
        }
    }

    /// Whether the same request may succeed if tried again: the connection was lost (connect again
    /// first), or the daemon could not reach its database for a moment (a PostgreSQL failover). A
    /// publish is safe to try again when it carries a message id: one that was stored after all is
    /// answered with its original.
    public var isRetryable: Bool {
        if isConnectionLoss { return true }
        if case let .server(code, _) = self { return code == .storageUnavailable }
        return false
    }

    public var description: String {
        switch self {
        case let .daemonNotRunning(path, reason):
            "no streamd is listening on \(path) (\(reason)); start it with `swift run streamd`"
                + " (or set STREAMD_SOCKET to the socket of a running daemon)"
        case let .server(code, message): "streamd answered \(code): \(message)"
        case let .connectionClosed(why): "the connection to streamd closed: \(why)"
        case let .protocolViolation(what): "streamd sent an unexpected frame: \(what)"
        case let .streamFailed(message): "the stream failed: \(message)"
        case let .subscriptionEnded(reason, message): "the daemon ended the subscription (\(reason)): \(message)"
        case let .codec(what): "codec error: \(what)"
        case let .requestTooLarge(length, maximum):
            "the request's frame is \(length) bytes, more than the \(maximum) bytes streamd accepts in one frame;"
                + " publish smaller payloads or split the batch"
        case let .untrustedDaemon(_, reason): reason
        }
    }
}
