/// What opening a log does with a journal left by a process that stopped before storing all of it:
/// a writable log stores the records the database does not hold yet (whether or not it journals
/// itself: its appends must not take those sequences again), or on a full disk a journaled one keeps
/// them waiting until there is room; a read-only one refuses to open rather than show a stream
/// without its last acknowledged events.
extension LogWriter {
    /// Stores the records of `journal`'s current generation that the database does not hold yet, in
    /// batches of about `JournalBacklog.eventsPerBatch` events.
    ///
    /// On a full disk (after the room `FullDiskGuard.filled` could make), with `keepingUnstored` it
    /// returns the appends it could not store yet, which a journaled log keeps waiting in its backlog
    /// until there is room, and the journal goes on after its records; otherwise, and on any other
    /// failure, it throws. Returns nothing once all are stored (the journal may then start over).
    func replay(_ journal: Journal, keepingUnstored: Bool) throws(EventLogError) -> [JournaledAppend] {
        let records = try journal.records()
        guard !records.isEmpty else { return [] }
        let names = Dictionary(try StreamCatalog.loadAll(on: connection).map { ($0.id, $0.name) }) { first, _ in first }
        let appends = records.compactMap { record in names[record.streamID].map { JournaledAppend(stream: $0, record: record) } }
        var start = appends.startIndex
        while start < appends.endIndex {
            var end = start, events = 0
            while end < appends.endIndex, events < JournalBacklog.eventsPerBatch {
                events += appends[end].record.payloads.count
                end += 1
            }
            let batch = Array(appends[start..<end])
            do {
                try storeMakingRoom(batch)
            } catch where error.code == .diskFull && keepingUnstored {
                journal.resume(after: records)
                return Array(appends[start...])
            }
            start = end
        }
        return []
    }
}

extension Journal {
    /// The events of the current generation that `streams` (the catalog) do not hold.
    func unstoredEvents(against streams: [StreamState]) throws(EventLogError) -> UInt64 {
        let byID = Dictionary(streams.map { ($0.id, $0) }) { first, _ in first }
        var missing: UInt64 = 0
        for record in try records() {
            guard let state = byID[record.streamID], state.created == record.streamCreated,
                record.lastSequence > state.lastSequence
            else { continue }
            missing += record.lastSequence - max(state.lastSequence, record.firstSequence - 1)
        }
        return missing
    }

    /// Throws if the journal beside the read-only database `connection` holds events it does not.
    static func refuseUnstored(besideReadOnly connection: SQLiteConnection, databasePath: String) throws(EventLogError) {
        guard let journal = try Journal.openForReading(forDatabase: databasePath) else { return }
        let missing = try journal.unstoredEvents(against: try StreamCatalog.loadAll(on: connection))
        guard missing > 0 else { return }
        throw EventLogError(
            .busy,
            "\(journal.file.path) holds \(missing) acknowledged events that are not in \(databasePath) yet: the process that wrote them stopped before moving them in. Open the log for writing once (start streamd on it, or open it without readOnly) and they move in; then read it.",
            path: databasePath)
    }
}
