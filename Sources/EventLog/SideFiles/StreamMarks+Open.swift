extension StreamMarks {
    /// Opens the marks of a writable log and checks the database against them: a database behind its
    /// marks lost acknowledged events. Then it is refused (`lostEvents`), unless `accept`, which moves
    /// every stream that lost events past the last sequence it acknowledged (so no number a client may
    /// have seen is handed out again) and records the loss for `verify`. Runs before the writer starts.
    static func openChecked(
        _ connection: SQLiteConnection, databasePath: String, accept: Bool, now: Int64
    ) throws(EventLogError) -> StreamMarks {
        let marks = try StreamMarks.open(forDatabase: databasePath)
        let hasMarks = try marks.hasMarks()
        let slots = try marks.slots()
        var streams = try StreamCatalog.loadAll(on: connection)
        guard hasMarks else {
            marks.resync(streams)
            return marks
        }
        let losses = StreamMarks.losses(slots, against: streams)
        guard !losses.isEmpty else {
            marks.resync(streams)
            return marks
        }
        guard accept else { throw lostEventsError(losses, databasePath: databasePath, marksPath: marks.file.path) }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            for loss in losses {
                guard let index = streams.firstIndex(where: { $0.id == loss.id && $0.created == loss.created }) else { continue }
                var state = streams[index]
                // A stream that ended hands out no more sequences; its lost tail only shows in verify.
                guard state.terminal == 0 else { continue }
                if state.firstSequence == state.lastSequence + 1 { state.firstSequence = loss.sequences.upperBound + 1 }
                state.lastSequence = loss.sequences.upperBound
                try StreamCatalog.updatePositions(state, on: connection)
                streams[index] = state
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        try marks.recordAcceptedLoss(events: losses.reduce(0) { $0 + UInt64($1.sequences.count) }, at: now)
        marks.resync(streams)
        return marks
    }

    /// The refusal: what was lost, where it was recorded, and what to do.
    static func lostEventsError(_ losses: [Loss], databasePath: String, marksPath: String) -> EventLogError {
        let events = losses.reduce(UInt64(0)) { $0 + UInt64($1.sequences.count) }
        let named = losses.prefix(3).map(describe).joined(separator: "; ")
        let more = losses.count > 3 ? "; and \(losses.count - 3) more streams" : ""
        return EventLogError(
            .lostEvents,
            "the event log \(databasePath) went backwards: \(events) acknowledged events of \(losses.count) \(losses.count == 1 ? "stream" : "streams") are not in it (\(named)\(more)), although \(marksPath) records them. Its write-ahead log (\(databasePath)-wal) was damaged or cut short, or the file was replaced by an older copy. Restore the files from a backup if you have one; or, to go on with what is left, open it accepting the loss (streamd --accept-lost-events, EventLogOptions.acceptLostEvents): each stream then continues past the last sequence it acknowledged, so no sequence is reused, and verify reports the loss.",
            path: databasePath, stream: losses.first?.stream, sequences: losses.first?.sequences)
    }

    static func describe(_ loss: Loss) -> String {
        let range = "\(loss.sequences.lowerBound)...\(loss.sequences.upperBound)"
        if let stream = loss.stream { return "stream \"\(stream)\" sequences \(range)" }
        return "a stream (id \(loss.id), created at \(loss.created) µs) that is gone, sequences \(range)"
    }
}
