import Synchronization

/// A number of bytes shared by many holders: each takes what it needs before it holds it and gives it
/// back when it lets go, and a take that would pass the limit is refused.
///
/// The hub keeps one for the message ids its de-duplication windows remember and one for the bytes
/// its connections buffer of frames not yet complete, so no number of streams or connections can
/// make either grow past its limit.
/// Thread-safety: Sendable; `take` and `give` are atomic and may be called from any thread.
public final class ByteBudget: Sendable {
    /// The most bytes all holders together may hold.
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// A budget of `limit` bytes, none of them taken.
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The bytes taken and not given back.
    public var usedBytes: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` if they fit under the limit; returns false, taking nothing, if they do not.
    public func take(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let after = used.add(bytes, ordering: .relaxed).newValue
        guard after <= limit else {
            used.subtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Takes `bytes` even past the limit, for a holder that gives back the excess itself soon after
    /// (see `isOverLimit`).
    public func force(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.add(bytes, ordering: .relaxed)
    }

    /// Whether more than the limit is taken.
    public var isOverLimit: Bool { usedBytes > limit }

    /// Gives back `bytes` taken earlier.
    public func give(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.subtract(bytes, ordering: .relaxed)
    }
}
