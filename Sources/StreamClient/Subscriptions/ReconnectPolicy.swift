/// How a resuming subscription reconnects after losing its connection, and how an `IdempotentPublisher`
/// tries an append again: exponential backoff, bounded tries.
///
/// Thread-safety: a value type.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Tries after each loss before the subscription (or the append) fails with the last error.
    public var maximumAttempts: Int
    /// The wait before the first try; it doubles after each failed try.
    public var initialDelay: Duration
    /// The longest wait between tries.
    public var maximumDelay: Duration

    /// A policy; by default 40 tries, from 50 ms doubling up to 1 s (about half a minute in all).
    public init(maximumAttempts: Int = 40, initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(1)) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The default policy.
    public static let standard = ReconnectPolicy()
}
