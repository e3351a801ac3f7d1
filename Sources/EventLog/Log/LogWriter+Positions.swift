extension LogWriter {
    /// Appends write a stream's catalog row at most every this many blocks, or when retention or a
    /// terminal event changes it, so most commits write one page; loads add the blocks past the row
    /// (`StreamCatalog.columns`).
    static let unsavedBlockLimit = 128

    /// Writes `state`'s catalog row if this commit's `blocks` make it due, or if retention or a
    /// terminal event changed it since `before`; returns the blocks left unsaved after the commit.
    /// Runs inside the commit's transaction.
    func savePositionsIfDue(_ state: StreamState, before: StreamState, adding blocks: Int) throws(EventLogError) -> Int {
        let unsaved = (unsavedBlocks[state.name] ?? Self.unsavedBlockLimit) + blocks
        guard unsaved >= Self.unsavedBlockLimit || state.firstSequence != before.firstSequence
            || state.terminal != before.terminal
        else { return unsaved }
        try StreamCatalog.updatePositions(state, on: connection)
        return 0
    }

    /// Writes the catalog rows appends left behind, so that the next open reads no blocks past them.
    /// A failure leaves them to be added on load, as after a crash.
    func savePositions() {
        _ = try? transaction {
            for (name, count) in unsavedBlocks where count > 0 {
                guard let state = cached(name) else { continue }
                try StreamCatalog.updatePositions(state, on: connection)
            }
        }
    }
}
