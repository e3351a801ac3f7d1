#if canImport(Glibc)
import Glibc
#endif

/// `<db>.reserve`: space set aside on the database's file system, given back when the disk is full so
/// that deleting, truncating and checkpointing still have room to write.
///
/// On a full disk every SQLite write fails, including a delete (its pages go to the WAL first) and the
/// checkpoint that must copy the WAL into the database before the WAL can start over (the database
/// grows by the pages the WAL holds past its end, up to the WAL's size). So the reserve must cover a
/// WAL's worth of pages, plus the few a delete or truncation writes (freed pages go on SQLite's
/// freelist: a 1 GiB stream's delete writes about 260 freelist trunk pages, ~1 MiB). Its size is
/// `EventLogOptions.diskReserveBytes`, 8 MiB by default: twice the 1 000-page WAL at which the log
/// checkpoints.
///
/// Thread-safety: not Sendable; the log's writer owns it.
final class DiskReserve {
    let file: SideFile
    let bytes: Int

    private init(file: SideFile, bytes: Int) {
        self.file = file
        self.bytes = bytes
    }

    /// The reserve file of the database at `databasePath`.
    static func path(forDatabase databasePath: String) -> String { databasePath + ".reserve" }

    /// Opens (creating if needed) the reserve of a writable log; it may still need `refill`.
    static func open(forDatabase databasePath: String, bytes: Int) throws(EventLogError) -> DiskReserve {
        DiskReserve(file: try SideFile.openOrCreate(path(forDatabase: databasePath)), bytes: bytes)
    }

    /// Whether the reserve holds its space now.
    var isHeld: Bool { (try? file.size()) ?? 0 >= bytes }

    /// Allocates the reserve's blocks (not a sparse file: a full disk must not take them away).
    /// Returns false when the file system has no room for them.
    func refill() -> Bool {
        if isHeld { return true }
        return posix_fallocate(file.descriptor, 0, off_t(bytes)) == 0
    }

    /// Gives the reserve's space back to the file system.
    func release() {
        _ = ftruncate(file.descriptor, 0)
    }
}

@available(*, unavailable)
extension DiskReserve: Sendable {}
