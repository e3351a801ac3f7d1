import Foundation
import StreamProtocol

/// The database's directory, created if missing without following a symlink another user planted,
/// and checked before any file is made in it: owned by the daemon's user or root, and not writable by
/// other users unless sticky (like `/tmp`), so nobody else can swap the lock or the database's side files.
///
/// Not Sendable: the daemon's start-up owns it and closes it once the lock is taken.
final class DatabaseDirectory {
    /// The open directory; the lock file is created relative to it.
    let descriptor: Int32
    /// The database's path with every symlink of its directory resolved (as the kernel reached the
    /// directory), so SQLite can open it with `SQLITE_OPEN_NOFOLLOW`, which refuses any symlink in the path.
    let resolvedDatabasePath: String

    /// Opens (creating where missing) and checks the directory of `databasePath`.
    ///
    /// - Throws: `StreamServerError` of kind `unsafeFile` naming the directory and what to do.
    init(databasePath: String) throws {
        var directory = (databasePath as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        do {
            descriptor = try TrustedDirectory.opened(directory, create: true)
        } catch {
            throw StreamServerError(.unsafeFile, "cannot use the database's directory: \(error.description)")
        }
        do {
            try TrustedDirectory.check(descriptor, path: directory, owner: .callerOrRoot, privateToOwner: false)
        } catch {
            close(descriptor)
            throw StreamServerError(.unsafeFile, error.description)
        }
        let name = (databasePath as NSString).lastPathComponent
        if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"), real.hasPrefix("/") {
            resolvedDatabasePath = (real as NSString).appendingPathComponent(name)
        } else {
            resolvedDatabasePath = databasePath
        }
    }

    deinit { close(descriptor) }
}
