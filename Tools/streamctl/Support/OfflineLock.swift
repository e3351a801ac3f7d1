import Foundation

/// The daemon's database lock (`flock` on `<database>.lock`), taken by `verify --db` so it never reads
/// a file a daemon is writing, and no daemon starts on the file while it does.
///
/// Not thread-safe: one command owns it.
final class OfflineLock {
    private let descriptor: Int32

    /// Takes the lock, or throws naming the daemon that holds it and what to do instead.
    init(databasePath: String) throws {
        let path = databasePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CtlFailure("cannot open the lock file \(path): \(String(cString: strerror(errno))).") }
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
        descriptor = fd
    }

    /// Releases the lock.
    func release() { close(descriptor) }
}
