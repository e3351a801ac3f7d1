import EventLog
import StreamModel

extension PostgresLog {
    /// Drops the events of `stream` before `sequence`; sequence numbers continue where they were.
    @discardableResult
    public func truncate(_ stream: String, before sequence: UInt64) throws -> StreamInfo {
        try truncate(stream) { state, _, _ in sequence }
    }

    /// Keeps only the last `count` events of `stream`.
    @discardableResult
    public func truncate(_ stream: String, keepingLast count: UInt64) throws -> StreamInfo {
        try truncate(stream) { state, _, _ in state.lastSequence >= count ? state.lastSequence - count + 1 : state.firstSequence }
    }

    /// Drops the events of `stream` whose timestamp is before `microseconds` since the Unix epoch.
    @discardableResult
    public func truncate(_ stream: String, olderThan microseconds: Int64) throws -> StreamInfo {
        try truncate(stream) { state, decoder, connection in
            try PostgresBlocks.firstSequence(
                streamID: state.id, atOrAfter: microseconds, lastSequence: state.lastSequence, decoder: decoder, on: connection)
        }
    }

    /// Drops the events that outlived their stream's maximum age now (appends do it for their own
    /// stream; streams nobody appends to need this, from a timer). Of the processes sharing the
    /// database, only the one holding the retention lease (`PostgresRetentionLease`) does it; the
    /// others return at once.
    public func enforceRetention() throws {
        guard retentionLease.isHeld() else { return }
        let now = options.clock()
        let decoder = try BlockDecoder()
        let limited = try catalogEntries().filter { $0.policy.maxAgeMicroseconds != nil }
        var drops: [RetentionDrop] = []
        for stream in limited {
            try pool.withConnection { connection in
                try connection.transaction {
                    guard var state = try PostgresCatalog.load(stream.name, on: connection, locking: true) else { return }
                    guard let dropped = try PostgresRetention.apply(&state, now: now, decoder: decoder, on: connection) else { return }
                    try PostgresCatalog.updatePositions(state, on: connection)
                    drops.append(dropped)
                }
            }
        }
        for drop in drops { options.retentionObserver?(drop) }
    }

    /// Moves the first retained sequence of `stream` to what `first` says (never backwards) and
    /// deletes the blocks wholly before it, in one transaction holding the stream's row lock.
    private func truncate(_ stream: String, first: (StreamState, BlockDecoder, PostgresConnection) throws -> UInt64) throws -> StreamInfo {
        let decoder = try BlockDecoder()
        return try describe(pool.withConnection { connection in
            try connection.transaction {
                var state = try locked(stream, on: connection)
                try PostgresRetention.moveFirst(&state, to: first(state, decoder, connection), on: connection)
                try PostgresCatalog.updatePositions(state, on: connection)
                return state
            }
        })
    }
}
