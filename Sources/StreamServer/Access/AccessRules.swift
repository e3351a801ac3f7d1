/// The daemon's answer to "may this client do that to this stream": pure and without I/O.
///
/// The daemon's own user (`ownerUID`) and root may do everything. Anyone else may do what some rule
/// that applies to them allows on a pattern the stream matches; rules only grant, never deny, so
/// their order does not matter. With no rules (no access file) only the owner and root may act.
///
/// ```swift
/// let rules = AccessRules(ownerUID: 999, rules: [
///     AccessRule(.user(1001), streams: try StreamPattern("public.*"), allow: [.read]),
/// ])
/// rules.allows(alice, .read, on: "public.news")   // true
/// rules.allows(alice, .publish, on: "public.news") // false
/// ```
/// Values are Sendable.
public struct AccessRules: Sendable, Hashable {
    /// The user the daemon runs as (its effective uid).
    public var ownerUID: UInt32
    /// The grants, in the file's order.
    public var rules: [AccessRule]

    /// Rules for a daemon running as `ownerUID`.
    public init(ownerUID: UInt32, rules: [AccessRule] = []) {
        self.ownerUID = ownerUID
        self.rules = rules
    }

    /// Whether `identity` may do everything, whatever the rules: root, or the daemon's own user.
    public func isUnrestricted(_ identity: AccessIdentity) -> Bool {
        identity.uid == 0 || identity.uid == ownerUID
    }

    /// Whether `identity` may use `right` on the stream `stream`.
    public func allows(_ identity: AccessIdentity, _ right: AccessRight, on stream: String) -> Bool {
        isUnrestricted(identity)
            || rules.contains { $0.allow.contains(right) && $0.applies(to: identity) && $0.streams.matches(stream) }
    }

    /// Whether `identity` may use `right` on every stream there is or will be: a rule for them with the
    /// pattern `*` grants it. Daemon-wide requests (statistics, verifying the whole log) need this.
    public func allowsOnEveryStream(_ identity: AccessIdentity, _ right: AccessRight) -> Bool {
        isUnrestricted(identity)
            || rules.contains { $0.allow.contains(right) && $0.applies(to: identity) && $0.streams.matchesEveryName }
    }

    /// Whether `identity` may use `right` (any right, when nil) on at least some stream name.
    public func allowsOnSomeStream(_ identity: AccessIdentity, _ right: AccessRight? = nil) -> Bool {
        isUnrestricted(identity) || rules.contains { rule in (right.map { rule.allow.contains($0) } ?? true) && rule.applies(to: identity) }
    }

    /// Whether `identity` has any right on `stream`, which lets it see the stream's description
    /// (`STREAM_INFO`, the listing) but not its events.
    public func allowsSomething(_ identity: AccessIdentity, on stream: String) -> Bool {
        isUnrestricted(identity) || rules.contains { $0.applies(to: identity) && $0.streams.matches(stream) }
    }
}
