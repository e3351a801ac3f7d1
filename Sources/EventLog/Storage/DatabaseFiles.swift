#if canImport(Glibc)
import Glibc
#endif

/// Sizes of a database's files and of the room beside them, for the log, its compaction, the full-disk
/// report, the daemon's `STATS` and its metrics.
///
/// Thread-safety: stateless; every function may be called from any thread.
package enum DatabaseFiles {
    /// Bytes of the file at `path`; a missing file counts 0.
    package static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Bytes of the database file and its WAL (a missing file counts 0).
    package static func bytes(_ path: String) -> Int64 {
        size(of: path) + size(of: path + "-wal")
    }

    /// Bytes free for an unprivileged writer on the file system holding `path`, or nil when unknown.
    package static func freeBytes(beside path: String) -> Int64? {
        var system = statvfs()
        return statvfs(path, &system) == 0 ? Int64(system.f_bavail) * Int64(system.f_frsize) : nil
    }
}
