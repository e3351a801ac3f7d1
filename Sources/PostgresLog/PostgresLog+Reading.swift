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
        try read(stream, from: position, expecting: 512, body)
    }

    /// `read(_:from:_:)` whose first page holds the blocks of the next `count` events (then twice as
    /// many each page): a subscriber that will take about `count` events gets them in one query.
    package func read(_ stream: String, from position: StartPosition, expecting count: Int, _ body: (LogEventView) throws -> Bool) throws {
        let decoder = try BlockDecoder()
        try pool.withConnection { connection in
            // From a sequence (how subscribers catch up) or from the start, each page finds the stream
            // by name itself: one query a page. Other positions need the stream's row first.
            var next: UInt64
            switch position {
            case let .from(sequence): next = sequence
            case .all: next = 0
            default:
                guard let state = try PostgresCatalog.load(stream, on: connection) else { throw notFound(stream) }
                next = try startSequence(state, position, decoder: decoder, on: connection)
            }
            // A page is the blocks holding the next `span` sequences: it starts at what the reader expects
            // to take, and grows for longer reads. Counted in sequences, not blocks, so small blocks
            // (small commits) come in as few queries as large; at most `pageBlocks` blocks, which bounds
            // a page's bytes, and at most `pageBytes` of payload (the first block always).
            var span = UInt64(min(max(count, 1), 65_536))
            let pageBlocks = 256, pageBytes = 8 << 20
            // The life of the stream the read began in: should it be deleted (and made again) meanwhile,
            // the read ends rather than go on into another life's events.
            var id: Int64?
            while true {
                defer { span = min(span * 2, 65_536) }
                guard let (pageID, first, blocks, cut) = try PostgresBlocks.page(
                    of: stream, id: id, from: next, span: span, limit: pageBlocks, bytes: pageBytes, on: connection)
                else {
                    if id != nil { return }
                    throw notFound(stream)
                }
                id = pageID
                next = max(next, first)
                let (end, past) = next.addingReportingOverflow(span)
                // A stream with no block left to read is one row of NULL block columns.
                guard !blocks.isNull(0, 0) else { return }
                for row in 0..<blocks.count {
                    guard let header = PostgresBlocks.header(blocks, row) else {
                        let (rowFirst, rowLast) = (blocks.int64(row, 0), blocks.int64(row, 1))
                        throw EventLogError(
                            .corruptBlock, "a stored block of stream \"\(stream)\" has impossible header columns (sequences \(rowFirst)...\(rowLast)); run verify.",
                            stream: stream, sequences: UInt64(max(1, rowFirst))...UInt64(max(1, rowFirst, rowLast)))
                    }
                    do {
                        guard try decoder.decode(header, stored: blocks.bytes(row, 8), from: next, body) else { return }
                        next = header.lastSequence + 1
                    } catch let error as EventLogError where error.code == .corruptBlock {
                        throw error.naming(stream: stream)
                    }
                }
                // Short of the span, and not cut by a limit: the stream has nothing after it yet.
                if (next < end || past) && !cut { return }
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
