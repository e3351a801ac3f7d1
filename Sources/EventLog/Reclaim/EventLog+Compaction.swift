#if canImport(Glibc)
import Glibc
#endif

extension EventLog {
    /// Bytes the log gave back to the file system since it was opened: by incremental steps after
    /// large deletions, and by `compact()`.
    public var reclaimedBytes: Int64 { reclaimTotals.reclaimedBytes }

    /// Gives every freed page back to the file system now and empties the WAL; reports the sizes.
    ///
    /// A log created by this build (incremental auto-vacuum) is compacted in steps of about a
    /// millisecond each, queued between commits, so publishes go on meanwhile. A log created by an
    /// earlier build (auto-vacuum off) cannot shrink in steps: it is rewritten whole, once, by a full
    /// `VACUUM` that switches it to incremental auto-vacuum. That holds every write until it ends
    /// (its duration grows with the data kept, not with what was freed) and needs free space of about
    /// twice the data kept: it is refused with `diskFull`, before it starts, when there is not.
    ///
    /// The WAL is emptied last, waiting for readers up to the busy timeout; a reader that holds its
    /// snapshot longer leaves the WAL as it is (the report shows the sizes as they are).
    ///
    /// - Throws: `diskFull` (no room for a rewrite, or none to write a step), `closed`, `readOnly`, or
    ///   a storage error.
    public func compact() throws -> CompactionReport {
        let started = wallClockMicroseconds()
        let before = DatabaseFiles.bytes(path)
        let path = self.path
        let incremental = try administer(transactional: false) { writer in
            try writer.reclaimer?.incremental(writer.connection) ?? false
        }
        if incremental {
            while try administer(transactional: false, { writer in
                guard let reclaimer = writer.reclaimer else { return false }
                let outcome = try reclaimer.step(writer.connection)
                return outcome.remainingPages > 0 && outcome.reclaimedPages > 0
            }) {}
        } else {
            // The outcome comes back as a value: a thrown `diskFull` would make `administer` give the
            // reserve back, which is for deletes, never for a rewrite.
            try administer(transactional: false) { writer in Self.rewrite(writer, path: path) }.get()
        }
        try? checkpoint()
        let after = DatabaseFiles.bytes(path)
        if !incremental { reclaimTotals.add(bytes: before - after) }
        return CompactionReport(
            bytesBefore: before, bytesAfter: after, rewrote: !incremental,
            milliseconds: (wallClockMicroseconds() - started) / 1_000)
    }

    /// Rewrites the database with a full `VACUUM`, switching it to incremental auto-vacuum; on the
    /// writer's thread.
    private static func rewrite(_ writer: LogWriter, path: String) -> Result<Void, EventLogError> {
        let connection = writer.connection
        do {
            let pageSize = try connection.integer("PRAGMA page_size")
            let kept = (try connection.integer("PRAGMA page_count") - connection.integer("PRAGMA freelist_count")) * pageSize
            // The copy is built in a temporary file, then written through the WAL: twice what is kept.
            let needed = 2 * kept + (1 << 20)
            if let free = DatabaseFiles.freeBytes(beside: path), free < needed {
                return .failure(EventLogError(
                    .diskFull,
                    "compacting \(path) rewrites it once (it was created without incremental auto-vacuum), which needs about \(needed >> 20) MiB free beside it and \(free >> 20) MiB are; free disk space, or delete or truncate streams first, then compact again.",
                    path: path))
            }
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try connection.execute("VACUUM")
            writer.reclaimer?.modeChanged()
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
