/// What `EventLog.compact()` gave back to the file system.
///
/// Values are immutable and Sendable.
public struct CompactionReport: Sendable, Hashable {
    /// Bytes of the database file and its WAL before.
    public let bytesBefore: Int64
    /// Bytes of the database file and its WAL after.
    public let bytesAfter: Int64
    /// Whether the database was rewritten whole (a full `VACUUM`, once, for a file made without
    /// incremental auto-vacuum) rather than compacted in steps; publishes waited for all of it.
    public let rewrote: Bool
    /// How long the compaction took, in milliseconds.
    public let milliseconds: Int64

    /// Bytes given back: `bytesBefore - bytesAfter`, or 0 if the files grew meanwhile.
    public var reclaimedBytes: Int64 { max(0, bytesBefore - bytesAfter) }

    /// The report with these figures.
    public init(bytesBefore: Int64, bytesAfter: Int64, rewrote: Bool, milliseconds: Int64) {
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
        self.rewrote = rewrote
        self.milliseconds = milliseconds
    }
}
