import Logging

/// Logs each live subscription that falls behind its stream and goes over to reading the log on
/// disk (its buffer of live events overflowed, or its connection stopped taking output), at notice,
/// with who subscribed; at most `perSecond` lines a second, so that a client subscribing and never
/// reading, over and over, cannot flood the log (the next line logged counts those left out).
///
/// Thread-safety: Sendable; `fellBehind` may be called from any thread.
final class SubscriberLog: Sendable {
    private let logger: Logger
    private let limit: LogRateLimit

    /// A log writing to `logger`, at most `perSecond` lines a second.
    init(logger: Logger, perSecond: Int = 20) {
        self.logger = logger
        limit = LogRateLimit(perSecond: perSecond)
    }

    /// Logs that `subscription` fell behind and reads the log from sequence `next` on.
    func fellBehind(_ subscription: Subscription, readingFrom next: UInt64) {
        guard logger.logLevel <= .notice, let leftOut = limit.admit() else { return }
        var metadata: Logger.Metadata = [
            "stream": .string(subscription.stream), "subscription": .stringConvertible(subscription.id),
            "next-sequence": .stringConvertible(next),
        ]
        if let owner = subscription.owner {
            metadata["uid"] = .stringConvertible(owner.uid)
            metadata["pid"] = .stringConvertible(owner.pid)
        }
        if leftOut > 0 { metadata["slow-subscribers-not-logged"] = .stringConvertible(leftOut) }
        logger.notice("a subscriber fell behind its stream; it reads the log on disk until it catches up", metadata: metadata)
    }
}
