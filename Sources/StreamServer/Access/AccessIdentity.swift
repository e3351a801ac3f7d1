#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import StreamProtocol

/// Who a client is, for deciding what it may do: the kernel's credentials of its connection, with the
/// user's name and every group it belongs to (primary and supplementary).
///
/// Values are Sendable.
public struct AccessIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The client's user id.
    public var uid: UInt32
    /// The client's primary group id.
    public var gid: UInt32
    /// The client's process id when it connected.
    public var pid: Int32
    /// The user's login name, or nil when no user has this id.
    public var userName: String?
    /// Every group the user belongs to, the primary one included.
    public var groups: Set<UInt32>

    /// An identity with these values; `groups` gets `gid` added.
    public init(uid: UInt32, gid: UInt32, pid: Int32, userName: String?, groups: Set<UInt32> = []) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.userName = userName
        self.groups = groups.union([gid])
    }

    /// The identity behind `peer`, its name and groups looked up in the system's user database
    /// (`getpwuid_r`, `getgrouplist`) now: a change of a user's groups reaches the connections made
    /// after it. A uid without a user has its primary group only.
    public init(_ peer: PeerCredentials) {
        let name = Self.userName(of: peer.uid)
        self.init(uid: peer.uid, gid: peer.gid, pid: peer.pid, userName: name,
                  groups: name.map { Self.groups(of: $0, primary: peer.gid) } ?? [])
    }

    /// `user alice (uid 1001)`, or `uid 1234 (no user of that id)`.
    public var description: String {
        userName.map { "user \($0) (uid \(uid))" } ?? "uid \(uid) (no user of that id)"
    }

    /// The login name of `uid`, from the user database.
    static func userName(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        let status = getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// Every group `user` belongs to, `primary` included, from the group database.
    private static func groups(of user: String, primary: UInt32) -> Set<UInt32> {
        var count: Int32 = 64
        // Linux allows at most 65 536 supplementary groups; a database claiming more gets the primary only.
        while count <= 65_536 {
            var ids = [gid_t](repeating: 0, count: Int(count))
            let capacity = count
            if getgrouplist(user, gid_t(primary), &ids, &count) >= 0 {
                return Set(ids[0..<Int(count)].map { UInt32($0) })
            }
            // Too small: `count` now says how many there are.
            if count <= capacity { count = capacity * 2 }
        }
        return [primary]
    }
}
