import EventLog
import StreamModel

extension PostgresLog {
    /// Creates a stream named `name` with `policy`.
    ///
    /// - Throws: `invalidStreamName`, `invalidArgument` for an impossible policy, `streamExists` if the
    ///   name is taken, or a storage error.
    @discardableResult
    public func createStream(_ name: String, policy: StreamPolicy = StreamPolicy()) throws -> StreamInfo {
        try StreamName.validate(name)
        try policy.validate(stream: name)
        let (state, made) = try ensured(name, policy: policy)
        guard made else {
            throw EventLogError(.streamExists, "a stream named \"\(name)\" already exists; use it, or delete it first.", stream: name)
        }
        return try describe(state)
    }

    /// Returns the stream named `name`, creating it with `policy` if it does not exist (an existing
    /// stream keeps its own policy).
    @discardableResult
    public func ensureStream(_ name: String, policy: StreamPolicy = StreamPolicy()) throws -> StreamInfo {
        try StreamName.validate(name)
        try policy.validate(stream: name)
        return try describe(ensured(name, policy: policy).state)
    }

    /// The catalog row of stream `name`, created with `policy` (which must be valid) if missing, and
    /// whether this call made it.
    package func ensured(_ name: String, policy: StreamPolicy) throws -> (state: StreamState, made: Bool) {
        let now = options.clock()
        return try pool.withConnection { connection in try PostgresCatalog.ensure(name, policy: policy, now: now, on: connection) }
    }

    /// Replaces the policy of stream `name` and applies its retention limits at once.
    @discardableResult
    public func updatePolicy(of name: String, to policy: StreamPolicy) throws -> StreamInfo {
        try policy.validate(stream: name)
        let now = options.clock()
        let (state, dropped) = try pool.withConnection { connection in
            try connection.transaction {
                var state = try locked(name, on: connection)
                state.policy = policy
                try PostgresCatalog.updatePolicy(state, on: connection)
                let dropped = try PostgresRetention.apply(&state, now: now, decoder: BlockDecoder(), on: connection)
                try PostgresCatalog.updatePositions(state, on: connection)
                return (state, dropped)
            }
        }
        if let dropped { options.retentionObserver?(dropped) }
        return try describe(state)
    }

    /// Deletes stream `name` and all its events. A stream created later under the same name starts
    /// again at sequence 1.
    public func deleteStream(_ name: String) throws {
        try pool.withConnection { connection in
            try connection.transaction {
                try PostgresCatalog.delete(locked(name, on: connection), on: connection)
            }
        }
    }

    /// How many streams the log holds.
    public func streamCount() throws -> Int {
        try pool.withConnection { connection in Int(try connection.execute("SELECT count(*) FROM streamd.streams").int64(0, 0)) }
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
        try pool.withConnection { connection in try PostgresCatalog.loadAll(on: connection) }
    }

    /// The catalog row of stream `name` alone, or nil if there is none.
    package func catalogEntry(_ name: String) throws -> StreamState? {
        try pool.withConnection { connection in try PostgresCatalog.load(name, on: connection) }
    }

    /// The row as `StreamInfo`, with what only its blocks tell: the first retained event's time and
    /// the bytes before compression.
    package func describe(_ state: StreamState) throws -> StreamInfo {
        var info = state.info
        guard state.storedBytes > 0 else { return info }
        info.rawBytes = try storageFigures(of: state.name).rawBytes
        guard info.count > 0 else { return info }
        do {
            try read(state.name, from: .all) { event in
                info.firstTime = event.timestamp
                return false
            }
        } catch let error as EventLogError where error.code == .corruptBlock || error.code == .streamNotFound {
            info.firstTime = 0
        }
        return info
    }

    /// The block count and the stored and uncompressed sizes of `stream` (every stream when nil).
    public func storageFigures(of stream: String? = nil) throws -> StorageFigures {
        try pool.withConnection { connection in
            let totals = "count(*)::int8, coalesce(sum(length(payload)), 0)::int8, coalesce(sum(raw_size), 0)::int8"
            let rows = try stream.map { name throws(EventLogError) in
                try connection.execute(
                    "SELECT \(totals) FROM streamd.blocks WHERE stream_id = (SELECT id FROM streamd.streams WHERE name = $1)", [.text(name)])
            } ?? connection.execute("SELECT \(totals) FROM streamd.blocks")
            return StorageFigures(
                blocks: UInt64(max(0, rows.int64(0, 0))), storedBytes: UInt64(max(0, rows.int64(0, 1))), rawBytes: UInt64(max(0, rows.int64(0, 2))))
        }
    }

    /// The row of stream `name`, locked for the caller's transaction; throws `streamNotFound`.
    func locked(_ name: String, on connection: PostgresConnection) throws(EventLogError) -> StreamState {
        guard let state = try PostgresCatalog.load(name, on: connection, locking: true) else { throw notFound(name) }
        return state
    }

    func notFound(_ name: String) -> EventLogError {
        EventLogError(.streamNotFound, "no stream named \"\(name)\" exists; create it with createStream first.", stream: name)
    }
}
