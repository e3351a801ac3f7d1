import Logging
import StreamProtocol

/// Logs the life of client connections: each opening and closing at debug (with the peer's pid, uid
/// and gid, and on closing why it ended), and each fatal protocol error a client causes at warning
/// with its code and sentence, at most `perSecond` a second so that a client sending garbage over
/// and over cannot flood the log (the next line logged counts those left out).
///
/// At the default level (info) nothing is logged per connection; nothing is built either, as
/// swift-log evaluates metadata only when the level is on.
/// Thread-safety: Sendable; every method may be called from any thread.
final class ConnectionLog: Sendable {
    private let logger: Logger
    private let protocolErrorLimit: LogRateLimit

    /// A log writing to `logger`, with at most `perSecond` protocol-error lines a second.
    init(logger: Logger, perSecond: Int = 20) {
        self.logger = logger
        protocolErrorLimit = LogRateLimit(perSecond: perSecond)
    }

    /// Logs that connection number `number` from `peer` opened.
    func opened(_ number: Int, peer: PeerCredentials?) {
        logger.debug("connection opened", metadata: Self.metadata(number, peer))
    }

    /// Logs that connection number `number` from `peer` closed after `duration`, and why.
    func closed(_ number: Int, peer: PeerCredentials?, reason: ConnectionEnd, duration: Duration) {
        logger.debug("connection closed", metadata: {
            var metadata = Self.metadata(number, peer)
            metadata["reason"] = .string(reason.rawValue)
            let (seconds, attoseconds) = duration.components
            metadata["duration-ms"] = .stringConvertible(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            return metadata
        }())
    }

    /// Logs (rate-limited) that the client of connection `number` broke the protocol: the `ERROR`
    /// it was sent, with its code and sentence, closed the connection.
    func protocolError(_ number: Int, peer: PeerCredentials?, code: ErrorCode, message: String) {
        guard let leftOut = protocolErrorLimit.admit() else { return }
        var metadata = Self.metadata(number, peer)
        metadata["code"] = .string("\(code)")
        metadata["error"] = .string(message)
        if leftOut > 0 { metadata["protocol-errors-not-logged"] = .stringConvertible(leftOut) }
        logger.warning("closed a connection for a protocol error", metadata: metadata)
    }

    private static func metadata(_ number: Int, _ peer: PeerCredentials?) -> Logger.Metadata {
        var metadata = PeerCredentials.logMetadata(peer)
        metadata["connection"] = .stringConvertible(number)
        return metadata
    }
}
