#if canImport(Glibc)
import Glibc
#endif

/// `<db>.journal`: where a journaled log (`EventLogOptions.journal`) makes its appends durable before
/// they move into the database.
///
/// Acknowledging an append costs one `pwrite` of its records here (and an `fdatasync` with `full`
/// durability) instead of a SQLite transaction; the writer thread then moves the appends into the
/// database in large batches (`LogWriter.store`). The file is a 32-byte header (magic "STRMJRN1", then
/// the generation, a little-endian UInt64) followed by `JournalRecord`s, each checked with its
/// generation. Once everything written is in the database the journal starts over (`reset`): the
/// generation goes up, so the records already there no longer pass their check, and new ones are
/// written from the header on, over them. Opening a log moves the records of the current generation
/// that the database does not have yet into it (`JournalReplay`), so a crash loses none.
///
/// Opened like the other side files (`SideFile`): never through a symbolic link, only a regular file of
/// this user with one link.
/// Thread-safety: not Sendable; the log's sequencer owns it (one committer at a time).
final class Journal {
    /// The file.
    let file: SideFile
    /// The generation of the records written now.
    private(set) var generation: UInt64
    /// Where the next record goes.
    private(set) var end: Int
    /// Whether each write is followed by an `fdatasync` (`full` durability).
    private let syncsEachWrite: Bool

    static let magic = Array("STRMJRN1".utf8)
    static let headerBytes = 32

    /// The journal of the database at `databasePath`.
    static func path(forDatabase databasePath: String) -> String { databasePath + ".journal" }

    private init(file: SideFile, generation: UInt64, syncsEachWrite: Bool) {
        self.file = file
        self.generation = generation
        self.syncsEachWrite = syncsEachWrite
        end = Self.headerBytes
    }

    /// Opens the journal of a writable log, creating it if `creating` (else nil when there is none).
    /// Its records are read with `records()`; new ones are written only after `reset()` or
    /// `resume(after:)`.
    static func open(forDatabase databasePath: String, durability: Durability, creating: Bool) throws(EventLogError) -> Journal? {
        var status = stat()
        if !creating, lstat(path(forDatabase: databasePath), &status) != 0, errno == ENOENT { return nil }
        let file = try SideFile.openOrCreate(path(forDatabase: databasePath))
        let header = try file.read(headerBytes, at: 0)
        let journal = Journal(file: file, generation: 0, syncsEachWrite: durability == .full)
        if header.count == headerBytes, Array(header[0..<8]) == magic {
            journal.generation = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        } else if !header.isEmpty {
            throw EventLogError(
                .io, "\(file.path) is not a journal of this log (it does not start with the journal's header); move it out of the way, after checking what it is.",
                path: file.path)
        }
        return journal
    }

    /// Opens the journal of a log for reading; nil when there is none.
    static func openForReading(forDatabase databasePath: String) throws(EventLogError) -> Journal? {
        guard let file = try SideFile.openForReading(path(forDatabase: databasePath)) else { return nil }
        let header = try file.read(headerBytes, at: 0)
        guard header.count == headerBytes, Array(header[0..<8]) == magic else { return nil }
        let generation = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        return Journal(file: file, generation: generation, syncsEachWrite: false)
    }

    /// The records of the current generation, in the order they were written: up to the first that is
    /// missing, torn or of an earlier generation.
    func records() throws(EventLogError) -> [JournalRecord] {
        let bytes = try file.read(max(0, try file.size() - Self.headerBytes), at: Self.headerBytes)
        var records: [JournalRecord] = []
        bytes.withUnsafeBytes { all in
            var offset = 0
            while let (record, size) = JournalRecord.decode(UnsafeRawBufferPointer(rebasing: all[offset...]), generation: generation) {
                records.append(record)
                offset += size
            }
        }
        return records
    }

    /// Writes `records` (encoded with `encode`) after the ones before, and syncs them with `full`
    /// durability; once this returns they survive a crash. On failure nothing counts as written: no
    /// record of the write is read back (a disk that filled part-way through the group leaves whole
    /// records of it behind, which its callers were told failed), and the next write goes to the same
    /// place.
    func append(_ bytes: [UInt8]) throws(EventLogError) {
        guard bytes.withUnsafeBytes({ file.write($0, at: end) }) else {
            let error = failure("could not be written")
            discardPastEnd()
            throw error
        }
        if syncsEachWrite, fdatasync(file.descriptor) != 0 {
            let error = failure("could not be synced to disk")
            discardPastEnd()
            throw error
        }
        end += bytes.count
    }

    /// Cuts the file at `end` (which needs no room, and gives back what the failed write took), or
    /// should that fail, zeroes the length of the record that would follow, so that no scan reads on.
    private func discardPastEnd() {
        guard ftruncate(file.descriptor, off_t(end)) != 0 else { return }
        let zeros = [UInt8](repeating: 0, count: JournalRecord.prefixBytes)
        _ = zeros.withUnsafeBytes { file.write($0, at: end) }
    }

    /// The journal bytes of `records`, checked under the current generation.
    func encode(_ records: some Sequence<JournalRecord>) -> [UInt8] {
        var bytes: [UInt8] = []
        for record in records { record.encode(generation: generation, into: &bytes) }
        return bytes
    }

    /// Goes on writing after `records` (what `records()` returned), which must stay: some are not in the
    /// database yet.
    func resume(after records: [JournalRecord]) {
        end = Self.headerBytes + records.reduce(0) { $0 + $1.size }
    }

    /// Starts over with the next generation, once everything written is in the database.
    func reset() throws(EventLogError) {
        var header = Self.magic
        withUnsafeBytes(of: (generation + 1).littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: [UInt8](repeating: 0, count: Self.headerBytes - header.count))
        guard header.withUnsafeBytes({ file.write($0, at: 0) }) else { throw failure("could not be started over") }
        if syncsEachWrite, fdatasync(file.descriptor) != 0 { throw failure("could not be synced to disk") }
        generation += 1
        end = Self.headerBytes
    }

    /// `reset`, and gives the file's space back to the file system (a full disk needs it more than the
    /// next records do, which then grow the file again).
    func resetAndShrink() throws(EventLogError) {
        try reset()
        guard ftruncate(file.descriptor, off_t(Self.headerBytes)) == 0 else { throw failure("could not be shortened") }
    }

    private func failure(_ what: String) -> EventLogError {
        if errno == ENOSPC || errno == EDQUOT { return FullDiskGuard.refusal(path: file.path) }
        return SideFile.failure(what, file.path)
    }
}

@available(*, unavailable)
extension Journal: Sendable {}
