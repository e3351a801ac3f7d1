import Logging
import StreamProtocol
import Synchronization

/// Logs each connection the server refuses or closes for a limit, at warning, with the peer's uid and
/// pid, at most `perSecond` lines a second: a storm of refusals cannot flood the log, and the next
/// line logged says how many were left out.
///
/// Thread-safety: Sendable; `refused` may be called from any thread (the count sits in a Mutex held
/// only to count, never while logging).
final class RefusalLog: Sendable {
    private let logger: Logger
    private let perSecond: Int
    private struct Window {
        var second: Int64 = -1
        var logged = 0
        var leftOut = 0
    }
    private let window = Mutex(Window())

    /// A log writing to `logger`, at most `perSecond` lines a second.
    init(logger: Logger, perSecond: Int = 20) {
        self.logger = logger
        self.perSecond = perSecond
    }

    /// Logs that the connection of `peer` was refused or closed because of `reason` (a sentence).
    func refused(_ reason: String, peer: PeerCredentials?) {
        let second = Self.start.duration(to: .now).components.seconds
        let leftOut: Int? = window.withLock { window in
            if window.second != second {
                window.second = second
                window.logged = 0
            }
            guard window.logged < perSecond else {
                window.leftOut += 1
                return nil
            }
            window.logged += 1
            defer { window.leftOut = 0 }
            return window.leftOut
        }
        guard let leftOut else { return }
        var metadata: Logger.Metadata = [
            "uid": "\(peer.map { String($0.uid) } ?? "unknown")", "pid": "\(peer.map { String($0.pid) } ?? "unknown")",
            "reason": "\(reason)",
        ]
        if leftOut > 0 { metadata["refusals-not-logged"] = "\(leftOut)" }
        logger.warning("refused a connection", metadata: metadata)
    }

    /// The origin of the one-second windows, on the monotonic clock.
    private static let start = ContinuousClock.now
}
