#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A directory that holds a default socket and must belong to the user alone (`/tmp/streamd-<uid>`, or
/// `$XDG_RUNTIME_DIR`): whoever owns it could put a fake daemon's socket there.
///
/// The daemon creates `/tmp/streamd-<uid>` with mode 0700 (never following a symlink) and checks it;
/// the client checks it before connecting. Either refuses a directory that is a symlink, belongs to
/// another user or lets others in.
/// Values are Sendable.
public struct PrivateSocketDirectory: Sendable, Equatable {
    /// The directory.
    public let path: String
    /// Whether the daemon creates it when missing (`/tmp/streamd-<uid>`), rather than the system
    /// (`$XDG_RUNTIME_DIR`, made by the login manager and possibly reached through a symlink).
    public let createdByDaemon: Bool

    /// A directory at `path`, created by the daemon or not.
    public init(path: String, createdByDaemon: Bool) {
        self.path = path
        self.createdByDaemon = createdByDaemon
    }

    /// Creates the directory when missing (if the daemon creates it) and checks that it is a real
    /// directory, owned by the caller's effective user, with no access for group or others.
    ///
    /// - Parameter create: false for a client, which checks an existing directory and leaves a missing
    ///   one to the connection's "no daemon" error.
    /// - Throws: `FileSafetyError` naming the directory, its owner and what to do.
    public func prepare(create: Bool) throws(FileSafetyError) {
        if !create {
            var info = stat()
            if lstat(path, &info) != 0, errno == ENOENT { return }
        }
        let descriptor = try TrustedDirectory.opened(
            path, create: create && createdByDaemon, mode: 0o700, followFinal: !createdByDaemon)
        defer { close(descriptor) }
        try TrustedDirectory.check(descriptor, path: path, owner: .caller, privateToOwner: true)
    }
}
