import Foundation

/// The daemon's database lock (`flock` on `<database>.lock`), taken shared by `verify --db` so it never
/// reads a file a daemon is writing, and no daemon starts on the file while it does.
///
/// Verifying is read-only: the lock file is only opened when it exists (read-only, never following a
/// symlink), never created. A database with no lock file beside it has no daemon serving it: every
/// daemon creates the file before it opens the database.
///
/// streamd derives its lock from its `--db` exactly as given (`DatabaseLock`: the path plus `.lock`,
/// symlinks not resolved), so this takes that same lock; when the path is a symlink it also takes the
/// lock beside the file it resolves to if that lock exists, since a daemon started on the real path
/// holds that one.
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
            try take(databasePath + ".lock", databasePath: databasePath)
            if let resolved = Self.realPath(databasePath), resolved != databasePath {
                try take(resolved + ".lock", databasePath: databasePath)
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

    /// Locks `path` shared; a missing lock file is no lock to take, and a symlink (which no daemon
    /// would use: it refuses them) is none either.
    private func take(_ path: String, databasePath: String) throws {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ELOOP { return }
            throw CtlFailure("cannot open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            let reason = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard reason == EWOULDBLOCK else { throw CtlFailure("cannot lock \(path): \(String(cString: strerror(reason))).") }
            let firstLine = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" : ""
            let trimmed = firstLine.trimmingCharacters(in: .whitespaces)
            let holder = trimmed.isEmpty ? "?" : trimmed
            throw CtlFailure("""
                the database \(databasePath) is in use by a running streamd (process \(holder)).
                  Drop --db to verify through that daemon (`streamctl verify`), or stop it first to verify the file offline.
                """)
        }
        descriptors.append(fd)
    }
}
