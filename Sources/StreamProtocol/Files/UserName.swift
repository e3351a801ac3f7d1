#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names of users and groups for messages: `alice (uid 1001)`, or `uid 1001` when the system has no name.
///
/// Thread-safety: stateless; every function may be called from any thread (it uses the reentrant
/// `getpwuid_r`/`getpwnam_r`).
public enum UserName {
    /// The login name of `uid`, or nil when there is none.
    public static func of(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }

    /// The user id of the login `name`, or nil when there is no such user.
    public static func uid(of name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// `alice (uid 1001)`, or `uid 1001` when the user has no name.
    public static func describe(_ uid: UInt32) -> String {
        of(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }
}
