/// A journaled log's second half: appends already numbered and acknowledged (they are in the
/// journal) go into the database, many commits' worth in one transaction. (The sequencer counts them
/// in the commit metrics, when they are acknowledged.)
extension LogWriter {
    /// Stores everything the backlog holds, in one transaction; a batch that cannot be stored goes back
    /// to the backlog to be tried again, and readers hear why meanwhile. On a full disk the reserve is
    /// given back and the batch tried once more at once, as deletes are.
    func ingest() {
        guard let backlog else { return }
        let (appends, position) = backlog.take()
        guard !appends.isEmpty else {
            backlog.stored(reaching: position)
            return
        }
        do {
            try storeMakingRoom(appends)
        } catch {
            backlog.failed(appends, because: error)
            return
        }
        backlog.stored(reaching: position)
    }

    /// `store`, tried once more after a full disk made what room it could (`FullDiskGuard.filled`).
    func storeMakingRoom(_ appends: [JournaledAppend]) throws(EventLogError) {
        do {
            try store(appends)
        } catch where error.code == .diskFull && fullDisk?.filled(connection) == true {
            try store(appends)
        }
    }

    /// Writes `appends` into the database in one transaction, in order, as their journal records say.
    ///
    /// Idempotent, so that opening a log can replay its whole journal: an append of a stream that is gone
    /// (or is another life of its name), or whose events the stream already holds, is skipped. An
    /// append that does not follow its stream's last sequence means the database lost events it had
    /// stored: that throws `lostEvents`.
    /// - Throws: the first stream's failure, after the other streams' appends went in (a failed
    ///   stream's appends are then stored again with the retry, and skipped as stored by then).
    func store(_ appends: [JournaledAppend]) throws(EventLogError) {
        var streams = CommitStreams()
        var accepted: [Accepted] = []
        accepted.reserveCapacity(appends.count)
        let now = self.now()
        try transaction { () throws -> Void in
            for append in appends {
                var record = append.record, encoded = append.encoded
                let known = streams.slot(of: append.stream)
                guard var state = try known.map({ streams[$0].state }) ?? storedState(of: append.stream),
                    state.id == record.streamID, state.created == record.streamCreated
                else { continue }
                if record.lastSequence <= state.lastSequence { continue }
                if record.firstSequence <= state.lastSequence {
                    // A stream moved past lost events (acceptLostEvents) keeps only the rest of the record.
                    let stored = Int(state.lastSequence + 1 - record.firstSequence)
                    record.payloads.removeFirst(stored)
                    if !record.messageIDs.isEmpty { record.messageIDs.removeFirst(stored) }
                    record.firstSequence = state.lastSequence + 1
                    encoded = nil
                }
                guard record.firstSequence == state.lastSequence + 1 else {
                    throw EventLogError(
                        .lostEvents,
                        "stream \"\(append.stream)\" ends at sequence \(state.lastSequence) in the database, but its journal goes on from \(record.firstSequence): the database lost events it had stored. Run verify.",
                        path: connection.path, stream: append.stream, sequences: (state.lastSequence + 1)...(record.firstSequence - 1))
                }
                let request = AppendRequest(
                    stream: append.stream, kind: record.kind, payloads: record.payloads, encoded: encoded, messageIDs: record.messageIDs) { _ in }
                let receipt = state.take(request, at: record.timestamp)
                let slot = known ?? streams.add(state)
                streams[slot].state = state
                accepted.append(Accepted(request: request, receipt: receipt, slot: slot))
            }
            for slot in streams.indices { try writeStream(slot, of: &streams, accepted, now: now) }
        }
        var failure: EventLogError?
        for part in streams.parts {
            if let error = part.failure {
                forget(part.state.name)
                failure = failure ?? error
            } else {
                remember(part.state)
                unsavedBlocks[part.state.name] = part.unsavedBlocks
                marks?.record(id: part.state.id, created: part.state.created, last: part.state.lastSequence)
            }
        }
        if let failure { throw failure }
    }

    /// The catalog state of `name`, or nil if there is no such stream (any more).
    private func storedState(of name: String) throws(EventLogError) -> StreamState? {
        do {
            return try stream(name)
        } catch where error.code == .streamNotFound {
            return nil
        }
    }
}
