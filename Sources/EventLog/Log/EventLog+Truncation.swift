extension EventLog {
    /// Drops the events of `stream` before `sequence`; sequence numbers continue where they were.
    @discardableResult
    public func truncate(_ stream: String, before sequence: UInt64) throws -> StreamInfo {
        try describe(administer { writer in
            var state = try writer.stream(stream)
            try writer.moveFirst(&state, to: sequence)
            try StreamCatalog.updatePositions(state, on: writer.connection)
            writer.remember(state)
            return state
        })
    }

    /// Keeps only the last `count` events of `stream`.
    @discardableResult
    public func truncate(_ stream: String, keepingLast count: UInt64) throws -> StreamInfo {
        try describe(administer { writer in
            var state = try writer.stream(stream)
            if state.lastSequence >= count { try writer.moveFirst(&state, to: state.lastSequence - count + 1) }
            try StreamCatalog.updatePositions(state, on: writer.connection)
            writer.remember(state)
            return state
        })
    }

    /// Drops the events of `stream` whose timestamp is before `microseconds` since the Unix epoch.
    @discardableResult
    public func truncate(_ stream: String, olderThan microseconds: Int64) throws -> StreamInfo {
        try describe(administer { writer in
            var state = try writer.stream(stream)
            let first = try BlockStore.firstSequence(
                streamID: state.id, atOrAfter: microseconds, lastSequence: state.lastSequence,
                decoder: writer.decoder, on: writer.connection)
            try writer.moveFirst(&state, to: first)
            try StreamCatalog.updatePositions(state, on: writer.connection)
            writer.remember(state)
            return state
        })
    }

    /// Drops the events that outlived their stream's maximum age now (appends do it for their own
    /// stream; streams nobody appends to need this, e.g. from a timer). Cheap when nothing expired:
    /// it reads only the streams with an age limit and writes only those it trimmed.
    public func enforceRetention() throws {
        try administer { writer in
            let now = writer.now()
            for var state in try StreamCatalog.loadAgeLimited(on: writer.connection) {
                let before = state
                try writer.applyRetention(&state, now: now)
                guard state != before else { continue }
                try StreamCatalog.updatePositions(state, on: writer.connection)
                writer.remember(state)
            }
        }
    }

    /// Copies the WAL into the database file and truncates the WAL, waiting for readers if needed
    /// (a background thread also checkpoints passively as the WAL grows; this waits for its pass).
    ///
    /// - Throws: `busy` when a reader kept its snapshot longer than the busy timeout, so the WAL
    ///   could not be emptied (what was copied stays copied; try again later).
    public func checkpoint() throws {
        let checkpointer = self.checkpointer
        let path = self.path
        try administer(transactional: false) { writer in
            func truncate() throws(EventLogError) {
                // SQLite reports a checkpoint that readers kept from finishing in its result row, not as an error.
                guard try writer.connection.integer("PRAGMA wal_checkpoint(TRUNCATE)") == 0 else {
                    throw EventLogError(
                        .busy,
                        "a reader of \(path) kept its snapshot past the busy timeout, so the WAL was not emptied; try again when long reads are done.",
                        path: path)
                }
            }
            if let checkpointer { try checkpointer.betweenPasses(truncate) } else { try truncate() }
        }
    }
}
