extension EventLog {
    /// Creates a stream named `name` with `policy`.
    ///
    /// - Throws: `invalidStreamName` (see `StreamName`), `invalidArgument` for an impossible policy,
    ///   `streamExists` if the name is taken, or a storage error.
    @discardableResult
    public func createStream(_ name: String, policy: StreamPolicy = StreamPolicy()) throws -> StreamInfo {
        try StreamName.validate(name)
        try policy.validate(stream: name)
        let path = self.path
        return try describe(administer { writer in
            if try StreamCatalog.load(name, on: writer.connection) != nil {
                throw EventLogError(
                    .streamExists, "a stream named \"\(name)\" already exists; use it, or delete it first.",
                    path: path, stream: name)
            }
            return try writer.insertStream(name, policy: policy)
        })
    }

    /// Returns the stream named `name`, creating it with `policy` if it does not exist (an existing
    /// stream keeps its own policy).
    @discardableResult
    public func ensureStream(_ name: String, policy: StreamPolicy = StreamPolicy()) throws -> StreamInfo {
        try StreamName.validate(name)
        try policy.validate(stream: name)
        return try describe(ensuredStream(name, policy: policy))
    }

    /// The catalog row of stream `name`, created with `policy` if missing; `policy` must be valid.
    package func ensuredStream(_ name: String, policy: StreamPolicy) throws -> StreamState {
        try administer { writer in
            if let state = try StreamCatalog.load(name, on: writer.connection) { return state }
            return try writer.insertStream(name, policy: policy)
        }
    }

    /// Replaces the policy of stream `name` and applies its retention limits at once.
    @discardableResult
    public func updatePolicy(of name: String, to policy: StreamPolicy) throws -> StreamInfo {
        try policy.validate(stream: name)
        return try describe(administer { writer in
            var state = try writer.stream(name)
            state.policy = policy
            try StreamCatalog.updatePolicy(state, on: writer.connection)
            try writer.applyRetention(&state, now: writer.now())
            try StreamCatalog.updatePositions(state, on: writer.connection)
            writer.remember(state)
            return state
        })
    }

    /// Deletes stream `name` and all its events. A stream created later under the same name starts
    /// again at sequence 1.
    public func deleteStream(_ name: String) throws {
        try administer { writer in
            let state = try writer.stream(name)
            // Cleared first: a crash before the commit leaves the database ahead of its marks, never behind.
            writer.marks?.clear(id: state.id)
            try StreamCatalog.delete(state, on: writer.connection)
            writer.reclaimer?.noteFreed(state.storedBytes)
            writer.forget(name)
            writer.freedStreamID(state.id)
        }
    }

    /// How many streams the log holds, without reading their catalog rows: the writer keeps the count
    /// of the stream ids in use (see `FreeStreamIDs`), so this costs the same at 100 000 streams as at 10.
    public func streamCount() throws -> Int {
        try administer(transactional: false) { writer in Int(try writer.freeStreamIDs().usedCount) }
    }

    /// What stream `name` holds and how it is kept, or nil if there is no such stream.
    public func streamInfo(_ name: String) throws -> StreamInfo? {
        try catalogEntry(name).map(describe)
    }

    /// Every stream of the log, by name.
    public func streams() throws -> [StreamInfo] {
        try catalogEntries().map(describe)
    }

    /// Every stream's catalog row alone (no block is read), by name.
    package func catalogEntries() throws -> [StreamState] {
        try readers.withReader(catalog: true) { reader in try StreamCatalog.loadAll(on: reader.connection) }
    }

    /// The catalog row of stream `name` alone (no block is read), or nil if there is none.
    package func catalogEntry(_ name: String) throws -> StreamState? {
        try readers.withReader(catalog: true) { reader in try StreamCatalog.load(name, on: reader.connection) }
    }

    /// The row as `StreamInfo`, with what only its blocks tell: the first retained event's time (0 when
    /// its block is damaged, so a damaged stream can still be inspected and repaired) and the bytes
    /// before compression.
    package func describe(_ state: StreamState) throws -> StreamInfo {
        var info = state.info
        guard state.storedBytes > 0 else { return info }
        info.rawBytes = try storageFigures(of: state.name, catalog: true).rawBytes
        guard info.count > 0 else { return info }
        var firstTime: Int64 = 0
        do {
            try read(state.name, from: .all, catalog: true) { event in
                firstTime = event.timestamp
                return false
            }
        } catch let error as EventLogError where error.code == .corruptBlock || error.code == .streamNotFound {
            firstTime = 0
        }
        info.firstTime = firstTime
        return info
    }
}
