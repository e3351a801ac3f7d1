import EventLog
import Foundation
import StreamProtocol

/// An advisory lock (`flock`) on `<database>.lock`, held for the daemon's life, so that two daemons
/// never serve one database.
///
/// The lock file holds the owner's process id, which the refusal message names. The kernel drops the
/// lock when the process dies, so a crash never leaves the database locked.
///
/// A user who may write the database's directory could plant `<database>.lock` as a symlink or a hard
/// link to a file of the daemon's user (root's `/etc/shadow`, say). So, as PostgreSQL's
/// `CreateLockFile` does, a new lock file is created with `O_CREAT | O_EXCL | O_NOFOLLOW`, an existing
/// one is opened with `O_NOFOLLOW` and used only when it is a regular file of the daemon's user with
/// one link, and no existing file is ever truncated: the pid is written over the start of the file in
/// a fixed-width field, which is all a lock file of this daemon ever holds.
/// Thread-safety: Sendable; `release` may be called from any thread, once.
final class DatabaseLock: Sendable {
    let path: String
    private let descriptor: Int32

    /// The bytes the pid is written in: enough for any pid, padded with spaces, then a newline.
    static let recordLength = 12

    /// Takes the lock beside `databasePath` (opened relative to `directory`, the descriptor of the
    /// database's checked directory, when given), or throws `databaseInUse` naming the holder, or
    /// `unsafeFile` when the path holds something streamd must not write.
    init(databasePath: String, directory: Int32? = nil) throws {
        path = databasePath + ".lock"
        let fd = try Self.open(path, in: directory)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = Self.holder(fd)
            close(fd)
            if reason == EWOULDBLOCK {
                throw StreamServerError(.databaseInUse, "the database \(databasePath) is in use by another streamd (process \(holder ?? "?"), lock \(path)); stop that daemon or pass another --db.")
            }
            throw StreamServerError(.system, "cannot lock \(path): \(String(cString: strerror(reason))).")
        }
        let padded = "\(getpid())".padding(toLength: Self.recordLength - 1, withPad: " ", startingAt: 0) + "\n"
        let record = Array(padded.utf8)
        _ = record.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    /// The process id at the start of the lock file `fd`, if any.
    static func holder(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let first = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Creates the lock file, or opens the existing one if it is safe to use (see `OwnedFile`).
    private static func open(_ path: String, in directory: Int32?) throws -> Int32 {
        let name = directory == nil ? path : (path as NSString).lastPathComponent
        switch OwnedFile.openOrCreate(name, in: directory ?? AT_FDCWD) {
        case .success(let opened): return opened.descriptor
        case .failure(let problem): throw failure(path, problem)
        }
    }

    private static func failure(_ path: String, _ problem: OwnedFile.Problem) -> StreamServerError {
        switch problem {
        case .symbolicLink:
            return StreamServerError(.unsafeFile, "the lock file \(path) is a symbolic link, which streamd never follows (another user may have planted it to make streamd overwrite a file); remove it and start streamd again.")
        case .notRegularFile:
            return StreamServerError(.unsafeFile, "the lock file \(path) is not a regular file, so streamd will not write to it; remove it (after checking who put it there) and start streamd again.")
        case .otherOwner(let owner):
            return StreamServerError(.unsafeFile, "the lock file \(path) belongs to \(UserName.describe(owner)), not to streamd's user \(UserName.describe(geteuid())), so streamd will not write to it; if no streamd of that user serves this database, remove the file and start streamd again.")
        case .hardLinks(let count):
            return StreamServerError(.unsafeFile, "the lock file \(path) has \(count) hard links, so writing it would change another file; remove it (after checking who linked it) and start streamd again.")
        case .keepsVanishing:
            return StreamServerError(.system, "cannot create the lock file \(path): it keeps appearing and disappearing; find out what else writes in that directory.")
        case .system(let code):
            return StreamServerError(.system, "cannot open the lock file \(path): \(String(cString: strerror(code))).")
        }
    }

    /// Releases the lock (the file stays: removing it would race with a daemon that just opened it).
    func release() {
        close(descriptor)
    }
}
