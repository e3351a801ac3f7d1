#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens, and creates where missing, the directories the daemon and the client put their files in,
/// without letting another local user redirect them with a symlink, and checks who owns them.
///
/// The path is walked one component at a time from a directory descriptor (`openat` with
/// `O_NOFOLLOW`, as systemd's `chase()` does): a component this code creates is never followed if it
/// turns into a symlink, and an existing symlink is followed only when root or the caller's own user
/// owns it (so `/var/run -> /run` works, a link planted by another user does not).
///
/// Thread-safety: stateless; every function may be called from any thread.
public enum TrustedDirectory {
    /// Who may own a directory that is checked.
    public enum Owner: Sendable, Equatable {
        /// The caller's effective user, or root.
        case callerOrRoot
        /// Exactly the caller's effective user.
        case caller
    }

    /// Opens the directory `path` (creating missing components with `mode`, less the umask, when
    /// `create`), and returns its descriptor, which the caller closes.
    ///
    /// - Parameter followFinal: whether the last component may be a symlink (owned by root or the caller).
    /// - Throws: `FileSafetyError` naming the component that is a symlink of another user, not a
    ///   directory, or cannot be opened or created.
    public static func opened(_ path: String, create: Bool, mode: mode_t = 0o755, followFinal: Bool = true) throws(FileSafetyError) -> Int32 {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        var current = open(path.hasPrefix("/") ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw FileSafetyError(path: path, "cannot open the directory \(path): \(String(cString: strerror(errno))).") }
        var walked = path.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            walked += "/" + component
            let isFinal = index == components.count - 1
            let next: Int32
            do {
                next = try step(into: component, of: current, walked: walked, create: create, mode: mode, follow: !isFinal || followFinal)
            } catch {
                close(current)
                throw error
            }
            close(current)
            current = next
        }
        return current
    }

    /// Opens `component` of the directory `parent` as a directory.
    private static func step(into component: String, of parent: Int32, walked: String, create: Bool, mode: mode_t, follow: Bool) throws(FileSafetyError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        var fd = openat(parent, component, flags | O_NOFOLLOW)
        if fd >= 0 { return fd }
        var reason = errno
        if reason == ENOENT, create {
            guard mkdirat(parent, component, mode) == 0 || errno == EEXIST else {
                throw FileSafetyError(path: walked, "cannot create the directory \(walked): \(String(cString: strerror(errno))).")
            }
            fd = openat(parent, component, flags | O_NOFOLLOW)
            if fd >= 0 { return fd }
            reason = errno
        }
        var info = stat()
        guard fstatat(parent, component, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw FileSafetyError(path: walked, "cannot open the directory \(walked): \(String(cString: strerror(reason))).")
        }
        guard info.st_mode & S_IFMT == S_IFLNK else {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw FileSafetyError(path: walked, "\(walked) is not a directory; remove it or choose another path.")
            }
            throw FileSafetyError(path: walked, "cannot open the directory \(walked): \(String(cString: strerror(reason))).")
        }
        let owner = UserName.describe(info.st_uid)
        guard follow else {
            throw FileSafetyError(path: walked, "\(walked) is a symbolic link (owned by \(owner)), not a directory; another user may have planted it to redirect streamd's files. Remove it, or choose another path.")
        }
        guard info.st_uid == 0 || info.st_uid == geteuid() else {
            throw FileSafetyError(path: walked, "\(walked) is a symbolic link owned by \(owner), who could point it anywhere; streamd follows only links owned by root or by its own user. Remove it or use the real path.")
        }
        fd = openat(parent, component, flags)
        guard fd >= 0 else {
            throw FileSafetyError(path: walked, "cannot open the directory \(walked) (a symbolic link): \(String(cString: strerror(errno))).")
        }
        return fd
    }

    /// Checks the open directory `descriptor` (at `path`): owned as `owner` says; with `privateToOwner`,
    /// no access at all for group or others, else not writable by group or others unless sticky (like `/tmp`).
    ///
    /// - Throws: `FileSafetyError` naming the directory, its owner or mode, and what to do.
    public static func check(_ descriptor: Int32, path: String, owner: Owner, privateToOwner: Bool) throws(FileSafetyError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw FileSafetyError(path: path, "cannot inspect the directory \(path): \(String(cString: strerror(errno))).")
        }
        let me = geteuid()
        let ownerAllowed = info.st_uid == me || (owner == .callerOrRoot && info.st_uid == 0)
        guard ownerAllowed else {
            let allowed = owner == .caller ? UserName.describe(me) : "\(UserName.describe(me)) or root"
            throw FileSafetyError(path: path, "the directory \(path) is owned by \(UserName.describe(info.st_uid)), not by \(allowed); another user may have created it to catch streamd's files or connections. Remove it (it is not yours to trust) or choose another path.")
        }
        let permissions = info.st_mode & 0o7777
        let octal = String(permissions, radix: 8)
        if privateToOwner {
            guard permissions & 0o077 == 0 else {
                throw FileSafetyError(path: path, "the directory \(path) has mode \(octal), so other users can reach it; it must be private (run `chmod 700 \(path)`).")
            }
        } else if permissions & 0o022 != 0 && permissions & S_ISVTX == 0 {
            throw FileSafetyError(path: path, "the directory \(path) has mode \(octal): other users may write it and swap streamd's files; run `chmod go-w \(path)` (or make it sticky like /tmp), or choose another directory.")
        }
    }
}
