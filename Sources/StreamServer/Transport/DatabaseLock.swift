import Foundation

/// An advisory lock (`flock`) on `<database>.lock`, held for the daemon's life, so that two daemons
/// never serve one database.
///
/// The lock file holds the owner's process id, which the refusal message names. The kernel drops the
/// lock when the process dies, so a crash never leaves the database locked.
/// Thread-safety: Sendable; `release` may be called from any thread, once.
final class DatabaseLock: Sendable {
    let path: String
    private let descriptor: Int32

    /// Takes the lock beside `databasePath`, or throws `databaseInUse` naming the holder.
    init(databasePath: String) throws {
        path = databasePath + ".lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StreamServerError(.system, "cannot open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            if reason == EWOULDBLOCK {
                let holder = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
                throw StreamServerError(.databaseInUse, "the database \(databasePath) is in use by another streamd (process \(holder), lock \(path)); stop that daemon or pass another --db.")
            }
            throw StreamServerError(.system, "cannot lock \(path): \(String(cString: strerror(reason))).")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    /// Releases the lock (the file stays: removing it would race with a daemon that just opened it).
    func release() {
        close(descriptor)
    }
}
