extension EventLog {
    /// False: the file has one writing process (streamd holds its lock), which remembers the ids it
    /// stored itself, having read them once with `rememberedMessageIDs`.
    package var checksMessageIDs: Bool { false }

    /// The message ids `stream` keeps within its de-duplication window (its policy's, or the last
    /// `options.deduplicationWindow` events) now, oldest first (none for a missing stream); with
    /// `among`, only those of them; with `newest`, only the newest `limit`. Every append acknowledged before the call is counted: the writer
    /// stores what the journal holds first.
    package func rememberedMessageIDs(of stream: String, among ids: [String]?, newest limit: Int?) throws -> [StoredMessageID] {
        try administer(transactional: false) { writer in
            let state: StreamState
            do {
                state = try writer.stream(stream)
            } catch let error as EventLogError where error.code == .streamNotFound {
                return []
            }
            return try MessageIDStore.remembered(
                by: state, window: writer.options.deduplication(of: state.policy), now: writer.now(), among: ids, newest: limit,
                on: writer.connection)
        }
    }
}
