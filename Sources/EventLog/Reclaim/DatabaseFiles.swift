#if canImport(Glibc)
import Glibc
#endif

/// Sizes of a database's files and of the room beside them.
///
/// Thread-safety: stateless; every function may be called from any thread.
enum DatabaseFiles {
    /// Bytes of the database file and its WAL (a missing file counts 0).
    static func bytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            var status = stat()
            return total + (stat(file, &status) == 0 ? Int64(status.st_size) : 0)
        }
    }

    /// Bytes free for an unprivileged writer on the file system holding `path`, or nil when unknown.
    static func freeBytes(beside path: String) -> Int64? {
        var system = statvfs()
        return statvfs(path, &system) == 0 ? Int64(system.f_bavail) * Int64(system.f_frsize) : nil
    }
}
