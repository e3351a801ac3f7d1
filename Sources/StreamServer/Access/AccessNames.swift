#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How an access file's user and group names become ids: the system's user database by default
/// (`getpwnam_r`, `getgrnam_r`), a table in tests.
///
/// Values are Sendable.
public struct AccessNames: Sendable {
    /// The uid of the user named so, or nil.
    public var user: @Sendable (String) -> UInt32?
    /// The gid of the group named so, or nil.
    public var group: @Sendable (String) -> UInt32?

    /// Names resolved by `user` and `group`.
    public init(user: @escaping @Sendable (String) -> UInt32?, group: @escaping @Sendable (String) -> UInt32?) {
        self.user = user
        self.group = group
    }

    /// The system's users and groups, looked up when the file is loaded.
    public static let system = AccessNames(
        user: { name in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>? = nil
            var buffer = [CChar](repeating: 0, count: 16 * 1024)
            guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
            return UInt32(entry.pw_uid)
        },
        group: { name in
            var entry = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>? = nil
            // Large groups list many members: grow the buffer while the call says it is too small.
            var size = 16 * 1024
            while size <= 16 * 1024 * 1024 {
                var buffer = [CChar](repeating: 0, count: size)
                let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
                if status == ERANGE { size *= 4; continue }
                guard status == 0, result != nil else { return nil }
                return UInt32(entry.gr_gid)
            }
            return nil
        })
}
