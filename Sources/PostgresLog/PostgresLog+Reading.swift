import EventLog
import StreamModel

extension PostgresLog {
    /// Calls `body` with each event of `stream` from `position` on, in sequence order, until `body`
    /// returns false or the events appended so far run out.
    ///
    /// Blocks are fetched a page at a time and decoded one by one; the `LogEventView` handed to `body`
    /// is valid only during the call (use `copy()` to keep it).
    ///
    /// - Throws: `streamNotFound`; `corruptBlock` naming the stream and the block's range when a block
    ///   fails its checks (the events before it were delivered); whatever `body` throws.
    public func read(_ stream: String, from position: StartPosition = .streamDefault, _ body: (LogEventView) throws -> Bool) throws {
        let decoder = try BlockDecoder()
        try pool.withConnection { connection in
            guard let state = try PostgresCatalog.load(stream, on: connection) else { throw notFound(stream) }
            var next = try startSequence(state, position, decoder: decoder, on: connection)
            let pageSize = 32
            while true {
                var stop = false
                let rows = try PostgresBlocks.blocks(of: state.id, atOrAfter: next, limit: pageSize, on: connection) { header, stored, rowFirst, rowLast in
                    guard let header else {
                        throw EventLogError(
                            .corruptBlock, "a stored block of stream \"\(stream)\" has impossible header columns (sequences \(rowFirst)...\(rowLast)); run verify.",
                            stream: stream, sequences: UInt64(max(1, rowFirst))...UInt64(max(1, rowFirst, rowLast)))
                    }
                    do {
                        let more = try decoder.decode(header, stored: stored, from: next, body)
                        next = header.lastSequence + 1
                        if !more { stop = true }
                        return more
                    } catch let error as EventLogError where error.code == .corruptBlock {
                        throw error.naming(stream: stream)
                    }
                }
                if stop || rows < pageSize { return }
            }
        }
    }

    /// The sequence the first event read from `position` has at least: where a reader of `stream`
    /// starting now begins (past the last event for `.newOnly`).
    public func startSequence(of stream: String, from position: StartPosition = .streamDefault) throws -> UInt64 {
        let decoder = try BlockDecoder()
        return try pool.withConnection { connection in
            guard let state = try PostgresCatalog.load(stream, on: connection) else { throw notFound(stream) }
            return try startSequence(state, position, decoder: decoder, on: connection)
        }
    }

    /// Calls `handler` with every commit to `stream` from now on, by any process, in sequence order,
    /// each once (live tail), on the tail's thread: it must be short and must not block.
    ///
    /// For a gap-free hand-over from history to live: observe first, then read history up to the
    /// current last sequence, then take the observed commits whose sequences are past what was read.
    public func observeAppends(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) throws -> AppendObservation {
        let observation = observers.add(stream: stream, immediately: true, handler)
        guard let state = try catalogEntry(stream) else { throw notFound(stream) }
        tail.watch(state)
        return observation
    }

    private func startSequence(_ state: StreamState, _ position: StartPosition, decoder: BlockDecoder, on connection: PostgresConnection) throws -> UInt64 {
        try state.startSequence(position) { time in
            try PostgresBlocks.firstSequence(
                streamID: state.id, atOrAfter: time, lastSequence: state.lastSequence, decoder: decoder, on: connection)
        }
    }
}
