import StreamProtocol

/// Who a connection's client is and the daemon's rules it is held to.
///
/// A session without one (`ConnectionSession(hub:output:)` in process) may do everything.
/// Values are Sendable.
public struct ConnectionAccess: Sendable {
    /// The client, as the kernel identified it.
    public let identity: AccessIdentity
    /// The daemon's rules and audit log.
    public let control: AccessControl
    /// Whether the client is root or the daemon's own user, who may do everything (no check needed).
    public let isUnrestricted: Bool

    /// The access of `identity` under `control`.
    public init(identity: AccessIdentity, control: AccessControl) {
        self.identity = identity
        self.control = control
        isUnrestricted = control.rules.isUnrestricted(identity)
    }

    /// The access of the peer `peer` (nil: the kernel gave no credentials, so nothing is allowed
    /// beyond what the rules give everyone, which is nothing) under `control`.
    static func of(_ peer: PeerCredentials?, control: AccessControl) -> ConnectionAccess {
        guard let peer else {
            return ConnectionAccess(identity: AccessIdentity(uid: .max, gid: .max, pid: 0, userName: nil), control: control)
        }
        let bare = AccessIdentity(uid: peer.uid, gid: peer.gid, pid: peer.pid, userName: nil)
        // Root and the daemon's user are never checked: their name is looked up only if an audit
        // line needs it, sparing every connection of theirs a read of the user database.
        if control.rules.isUnrestricted(bare) { return ConnectionAccess(identity: bare, control: control) }
        return ConnectionAccess(identity: AccessIdentity(peer), control: control)
    }
}
