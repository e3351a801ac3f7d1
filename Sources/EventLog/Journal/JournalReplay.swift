/// What opening a log does with a journal left by a process that stopped before storing all of it:
/// a writable log stores the records the database does not hold yet (whether or not it journals
/// itself: its appends must not take those sequences again); a read-only one refuses to open rather
/// than show a stream without its last acknowledged events.
extension LogWriter {
    /// Stores the records of `journal`'s current generation that the database does not hold yet, in
    /// batches of about `JournalBacklog.eventsPerBatch` events; returns how many records it read.
    @discardableResult
    func replay(_ journal: Journal) throws(EventLogError) -> Int {
        let records = try journal.records()
        guard !records.isEmpty else { return 0 }
        let names = Dictionary(try StreamCatalog.loadAll(on: connection).map { ($0.id, $0.name) }) { first, _ in first }
        var batch: [JournaledAppend] = []
        var events = 0
        for record in records {
            guard let name = names[record.streamID] else { continue }
            batch.append(JournaledAppend(stream: name, record: record))
            events += record.payloads.count
            if events >= JournalBacklog.eventsPerBatch {
                try store(batch)
                batch.removeAll()
                events = 0
            }
        }
        if !batch.isEmpty { try store(batch) }
        return records.count
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
