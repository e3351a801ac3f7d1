#if canImport(Glibc)
import Glibc
#endif

/// `<db>.marks`: each stream's acknowledged high-water mark, kept outside the database so that a log
/// that went backwards is noticed when it is opened.
///
/// SQLite drops a WAL's tail from its first damaged frame on, silently: acknowledged events vanish and
/// their sequence numbers would be handed out again, to different events. So after each commit, before
/// its appends are answered, the writer writes each stream's last sequence (with its creation time,
/// which tells one life of an id from the next) into the stream's 16-byte slot of this file, one
/// `pwrite` per stream of the commit. No fsync: the page cache outlives a crash of the process, and a
/// commit that survives only a process crash (`normal` durability) is no more durable than its mark.
/// (With `full` durability a power loss may lose marks the database kept, which only weakens the
/// check; the file is fsynced when the log closes.) Deleting a stream clears its slot before the
/// delete commits, so a crash between them leaves the database ahead of the file, never behind.
///
/// Layout: a 32-byte header (magic "STRMMRK1", then the events and time of the last accepted loss,
/// little-endian Int64s), then at 32 + 16 × id each stream's creation time and last sequence.
///
/// Thread-safety: not Sendable; the log's writer owns the writable one, and `verify` opens its own.
final class StreamMarks {
    /// A stream whose mark is past what the database holds.
    struct Loss: Sendable, Equatable {
        var id: Int64
        var created: Int64
        /// The stream's name, nil when the database has no stream of that id and creation time.
        var stream: String?
        /// The sequences the file says were acknowledged that the database does not hold.
        var sequences: ClosedRange<UInt64>
    }

    private static let magic = Array("STRMMRK1".utf8)
    private static let headerBytes = 32
    private static let slotBytes = 16
    let file: SideFile

    private init(file: SideFile) { self.file = file }

    /// The marks file of the database at `databasePath`.
    static func path(forDatabase databasePath: String) -> String { databasePath + ".marks" }

    /// Opens (creating if needed) the marks of a writable log.
    static func open(forDatabase databasePath: String) throws(EventLogError) -> StreamMarks {
        StreamMarks(file: try SideFile.openOrCreate(path(forDatabase: databasePath)))
    }

    /// Opens the marks of a log for reading; nil when there are none.
    static func openForReading(forDatabase databasePath: String) throws(EventLogError) -> StreamMarks? {
        try SideFile.openForReading(path(forDatabase: databasePath)).map(StreamMarks.init(file:))
    }

    /// Whether the file holds marks (a new or emptied file does not: the check then has nothing to go by).
    func hasMarks() throws(EventLogError) -> Bool {
        try file.read(Self.magic.count, at: 0) == Self.magic
    }

    /// Records that stream `id` (created at `created`) has acknowledged sequences up to `last`.
    /// A failed write (a full disk, say) is ignored: it only weakens the check.
    func record(id: Int64, created: Int64, last: UInt64) {
        var slot = (created.littleEndian, Int64(last).littleEndian)
        _ = withUnsafeBytes(of: &slot) { file.write($0, at: Self.headerBytes + Int(id) * Self.slotBytes) }
    }

    /// Clears the slot of stream `id`, which is being deleted.
    func clear(id: Int64) { record(id: id, created: 0, last: 0) }

    /// The marks as they are now: read them before the catalog snapshot they are checked against,
    /// since the writer moves them after each commit (a mark read first is never ahead of a later
    /// snapshot, unless another process deletes streams meanwhile).
    func slots() throws(EventLogError) -> [UInt8] {
        try file.read(max(0, try file.size() - Self.headerBytes), at: Self.headerBytes)
    }

    /// The streams whose marks (`slots`, read earlier) are past what `streams` (the catalog) hold.
    static func losses(_ slots: [UInt8], against streams: [StreamState]) -> [Loss] {
        let byID = Dictionary(streams.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var losses: [Loss] = []
        slots.withUnsafeBytes { raw in
            for index in 0..<(raw.count / slotBytes) {
                let created = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: index * slotBytes, as: Int64.self))
                let last = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: index * slotBytes + 8, as: Int64.self))
                guard last > 0 else { continue }
                let mark = UInt64(last), id = Int64(index)
                if let state = byID[id], state.created == created {
                    if state.lastSequence < mark {
                        losses.append(Loss(id: id, created: created, stream: state.name, sequences: (state.lastSequence + 1)...mark))
                    }
                } else {
                    losses.append(Loss(id: id, created: created, stream: nil, sequences: 1...mark))
                }
            }
        }
        return losses
    }

    /// Rewrites the file from the catalog: the header (keeping the recorded loss) and a slot per
    /// stream, written over the old contents before the file is cut to length, so that on a full disk
    /// (where a write that needs new blocks fails, and is then ignored) the file keeps valid marks.
    func resync(_ streams: [StreamState]) {
        let loss = try? acceptedLoss()
        let count = Self.headerBytes + Self.slotBytes * Int((streams.map(\.id).max() ?? 0) + 1)
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.replaceSubrange(0..<Self.headerBytes, with: Self.header(lostEvents: loss?.events ?? 0, lostAt: loss?.at ?? 0))
        bytes.withUnsafeMutableBytes { raw in
            for state in streams where state.lastSequence > 0 {
                let offset = Self.headerBytes + Int(state.id) * Self.slotBytes
                raw.storeBytes(of: state.created.littleEndian, toByteOffset: offset, as: Int64.self)
                raw.storeBytes(of: Int64(state.lastSequence).littleEndian, toByteOffset: offset + 8, as: Int64.self)
            }
        }
        if bytes.withUnsafeBytes({ file.write($0, at: 0) }) { _ = ftruncate(file.descriptor, off_t(count)) }
    }

    /// Adds `events` to the loss recorded in the header, dated `at` (microseconds since the epoch).
    func recordAcceptedLoss(events: UInt64, at: Int64) throws(EventLogError) {
        let before = try acceptedLoss()?.events ?? 0
        try writeHeader(lostEvents: before + events, lostAt: at)
    }

    /// The events lost in total and when the last loss was accepted, if ever.
    func acceptedLoss() throws(EventLogError) -> (events: UInt64, at: Int64)? {
        let header = try file.read(Self.headerBytes, at: 0)
        guard header.count == Self.headerBytes, Array(header[0..<8]) == Self.magic else { return nil }
        return header.withUnsafeBytes { raw in
            let events = UInt64(max(0, Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self))))
            let at = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: Int64.self))
            return events > 0 ? (events, at) : nil
        }
    }

    /// Flushes the file to the disk (when the log closes).
    func sync() { _ = fsync(file.descriptor) }

    private func writeHeader(lostEvents: UInt64, lostAt: Int64) throws(EventLogError) {
        let header = Self.header(lostEvents: lostEvents, lostAt: lostAt)
        guard header.withUnsafeBytes({ file.write($0, at: 0) }) else { throw SideFile.failure("cannot be written", file.path) }
    }

    private static func header(lostEvents: UInt64, lostAt: Int64) -> [UInt8] {
        var header = magic
        withUnsafeBytes(of: Int64(lostEvents).littleEndian) { header.append(contentsOf: $0) }
        withUnsafeBytes(of: lostAt.littleEndian) { header.append(contentsOf: $0) }
        header.append(contentsOf: [UInt8](repeating: 0, count: headerBytes - header.count))
        return header
    }
}

@available(*, unavailable)
extension StreamMarks: Sendable {}
