#if canImport(Glibc)
import Glibc
#endif

/// Opens a file a daemon keeps beside its database (the lock file, `<db>.marks`, `<db>.reserve`)
/// without ever following a symbolic link or writing a file someone else put there: someone who can
/// write the database's directory must not make the daemon write (or truncate) a file of their choosing.
///
/// A new file is created with `O_CREAT | O_EXCL | O_NOFOLLOW` and mode 0600; an existing one is opened
/// `O_NOFOLLOW | O_NONBLOCK` (a FIFO planted there must not hang the open) and used only if it is a
/// regular file of this process's user with exactly one link (a hard link would let a write reach
/// another file). As PostgreSQL's `CreateLockFile` does, a file that vanishes between the two opens
/// is created on the next turn.
///
/// Each caller turns an `OwnedFile.Problem` into its own module's error and words.
/// Thread-safety: stateless; every function may be called from any thread.
package enum OwnedFile {
    /// Why a file could not be used.
    package enum Problem: Error, Sendable, Equatable {
        /// The path is a symbolic link.
        case symbolicLink
        /// The path is something other than a regular file (a FIFO, a directory, a device).
        case notRegularFile
        /// The file belongs to another user.
        case otherOwner(uid_t)
        /// The file has more than one hard link.
        case hardLinks(Int)
        /// The file kept appearing and disappearing between the opens.
        case keepsVanishing
        /// A system call failed with this `errno`.
        case system(Int32)
    }

    /// Opens `name` (relative to `directory`, a checked directory's descriptor, or as given with
    /// `AT_FDCWD`) for reading and writing, creating it if missing; returns the descriptor and whether
    /// this call created the file.
    package static func openOrCreate(_ name: String, in directory: Int32 = AT_FDCWD) -> Result<(descriptor: Int32, created: Bool), Problem> {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW
        for _ in 0..<8 {
            let created = openat(directory, name, flags | O_CREAT | O_EXCL, 0o600)
            if created >= 0 { return .success((created, true)) }
            guard errno == EEXIST else { return .failure(problem(errno)) }
            let existing = openat(directory, name, flags | O_NONBLOCK)
            if existing < 0 {
                if errno == ENOENT { continue }
                return .failure(problem(errno))
            }
            if let problem = check(existing) {
                close(existing)
                return .failure(problem)
            }
            return .success((existing, false))
        }
        return .failure(.keepsVanishing)
    }

    /// Opens an existing `path` read-only; nil when there is none.
    package static func openForReading(_ path: String) -> Result<Int32?, Problem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 { return errno == ENOENT ? .success(nil) : .failure(problem(errno)) }
        if let problem = check(descriptor) {
            close(descriptor)
            return .failure(problem)
        }
        return .success(descriptor)
    }

    /// What is wrong with the open file `descriptor`, if anything.
    private static func check(_ descriptor: Int32) -> Problem? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .system(errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .notRegularFile }
        guard status.st_uid == geteuid() else { return .otherOwner(status.st_uid) }
        guard status.st_nlink == 1 else { return .hardLinks(Int(status.st_nlink)) }
        return nil
    }

    private static func problem(_ code: Int32) -> Problem {
        code == ELOOP ? .symbolicLink : .system(code)
    }
}
