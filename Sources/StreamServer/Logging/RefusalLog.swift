import Logging
import StreamProtocol

/// Logs each connection the server refuses or closes for a limit, at warning, with the peer's pid, uid
/// and gid, at most `perSecond` lines a second: a storm of refusals cannot flood the log, and the next
/// line logged says how many were left out.
///
/// Thread-safety: Sendable; `refused` may be called from any thread.
final class RefusalLog: Sendable {
    private let logger: Logger
    private let limit: LogRateLimit

    /// A log writing to `logger`, at most `perSecond` lines a second.
    init(logger: Logger, perSecond: Int = 20) {
        self.logger = logger
        limit = LogRateLimit(perSecond: perSecond)
    }

    /// Logs that the connection of `peer` was refused or closed because of `reason` (a sentence).
    func refused(_ reason: String, peer: PeerCredentials?) {
        guard let leftOut = limit.admit() else { return }
        var metadata = PeerCredentials.logMetadata(peer)
        metadata["reason"] = "\(reason)"
        if leftOut > 0 { metadata["refusals-not-logged"] = "\(leftOut)" }
        logger.warning("refused a connection", metadata: metadata)
    }
}
