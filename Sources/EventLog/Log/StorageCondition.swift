/// A change in the room the log has to write, reported to `EventLogOptions.storageObserver`.
///
/// Values are immutable and Sendable.
public struct StorageCondition: Sendable, Equatable, CustomStringConvertible {
    /// Whether the log is full: appends are refused, deletes and truncations still work.
    public let isFull: Bool
    /// The database file, or for a log on PostgreSQL the server's address.
    public let path: String
    /// Whether the log is on the PostgreSQL server at `path`: its disk is the server's, which the log
    /// cannot measure, so the figures below are 0.
    public let isServer: Bool
    /// Bytes free on the database's file system when the condition was seen.
    public let freeBytes: Int64
    /// Bytes of the database and its WAL.
    public let databaseBytes: Int64
    /// Bytes of pages inside the database that deletes and truncations freed, which appends reuse.
    public let reusableBytes: Int64
    /// The size of `<db>.reserve`, the space set aside for deletes on a full disk.
    public let reserveBytes: Int

    /// The condition as a log line: what happened, how much room there is, what to do.
    public var description: String {
        if isServer {
            return isFull
                ? "PostgreSQL at \(path) has no room left on its disk: publishing is refused until there is room. Free space on the database server's disk (streams deleted or truncated give theirs back once PostgreSQL vacuums them); publishing resumes by itself."
                : "PostgreSQL at \(path) has room again: publishing resumes."
        }
        if isFull {
            return "the disk holding the event log \(path) is full (\(freeBytes) bytes free; the database and its WAL take \(databaseBytes) bytes): publishing is refused until there is room. The \(reserveBytes)-byte reserve \(path).reserve was given back so that deleting and truncating still work: free space with `streamctl truncate STREAM --keep N`, `streamctl config STREAM --max-bytes N` or `streamctl rm STREAM`, or free disk space outside the log; publishing resumes by itself."
        }
        return "the event log \(path) has room again (\(freeBytes) bytes free on its disk, \(reusableBytes) bytes of freed pages inside the database): publishing resumes."
    }

    init(isFull: Bool, path: String, freeBytes: Int64, databaseBytes: Int64, reusableBytes: Int64, reserveBytes: Int) {
        self.isFull = isFull
        self.path = path
        isServer = false
        self.freeBytes = freeBytes
        self.databaseBytes = databaseBytes
        self.reusableBytes = reusableBytes
        self.reserveBytes = reserveBytes
    }

    /// The condition of a log on the PostgreSQL server at `address`.
    package init(isFull: Bool, server address: String) {
        self.isFull = isFull
        path = address
        isServer = true
        freeBytes = 0
        databaseBytes = 0
        reusableBytes = 0
        reserveBytes = 0
    }
}
