import Foundation

/// The daemon's database lock (`flock` on `<database>.lock`), taken by `verify --db` so it never reads
/// a file a daemon is writing, and no daemon starts on the file while it does.
///
/// streamd derives its lock from its `--db` exactly as given (`DatabaseLock`: the path plus `.lock`,
/// symlinks not resolved), so this takes that same lock; when the path is a symlink it also takes the
/// lock beside the file it resolves to if that lock exists, since a daemon started on the real path
/// holds that one. Nothing is created before the path is known to be an existing regular file.
///
/// Not thread-safe: one command owns it.
final class OfflineLock {
    private var descriptors: [Int32] = []

    /// Takes the lock, or throws naming the daemon that holds it and what to do instead.
    init(databasePath: String) throws {
        var status = stat()
        guard stat(databasePath, &status) == 0 else {
            throw CtlFailure("no database at \(databasePath): \(String(cString: strerror(errno))).")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CtlFailure("\(databasePath) is not a regular file, so not a database file; give the file streamd uses (its --db).")
        }
        do {
            try take(databasePath + ".lock", databasePath: databasePath, create: true)
            if let resolved = Self.realPath(databasePath), resolved != databasePath {
                try take(resolved + ".lock", databasePath: databasePath, create: false)
            }
        } catch {
            release()
            throw error
        }
    }

    /// Releases the lock.
    func release() {
        for descriptor in descriptors { close(descriptor) }
        descriptors.removeAll()
    }

    /// The path with every symlink resolved, or nil when it cannot be.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Locks `path`; without `create`, a missing lock file is no lock to take.
    private func take(_ path: String, databasePath: String, create: Bool) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
        guard fd >= 0 else {
            if !create, errno == ENOENT { return }
            throw CtlFailure("cannot open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard reason == EWOULDBLOCK else { throw CtlFailure("cannot lock \(path): \(String(cString: strerror(reason))).") }
            let holder = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            throw CtlFailure("""
                the database \(databasePath) is in use by a running streamd (process \(holder)).
                  Drop --db to verify through that daemon (`streamctl verify`), or stop it first to verify the file offline.
                """)
        }
        descriptors.append(fd)
    }
}
