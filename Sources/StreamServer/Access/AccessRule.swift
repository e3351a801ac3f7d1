/// One grant of an access file: a user or a group, a stream pattern, and the rights it gives.
///
/// Values are Sendable.
public struct AccessRule: Sendable, Hashable {
    /// Whom a rule is for.
    public enum Subject: Sendable, Hashable {
        /// The user with this uid.
        case user(UInt32)
        /// Every member of the group with this gid (primary or supplementary).
        case group(UInt32)
    }

    /// Whom the rule is for.
    public var subject: Subject
    /// The streams it covers.
    public var streams: StreamPattern
    /// What it allows on them.
    public var allow: Set<AccessRight>

    /// A rule granting `allow` on `streams` to `subject`.
    public init(_ subject: Subject, streams: StreamPattern, allow: Set<AccessRight>) {
        self.subject = subject
        self.streams = streams
        self.allow = allow
    }

    /// Whether the rule is about `identity`.
    public func applies(to identity: AccessIdentity) -> Bool {
        switch subject {
        case let .user(uid): identity.uid == uid
        case let .group(gid): identity.groups.contains(gid)
        }
    }
}
