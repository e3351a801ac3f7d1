extension EventLog {
    /// Calls `body` with each event of `stream` from `position` on, in sequence order, until `body`
    /// returns false or the events appended so far run out.
    ///
    /// Memory stays bounded by one block: blocks are fetched a page at a time, each page in its own
    /// read snapshot, and decoded one by one into a reused buffer. The `LogEventView` handed to `body`
    /// is valid only during the call (use `copy()` to keep it).
    ///
    /// - Throws: `streamNotFound`; `corruptBlock` naming the stream and the block's sequence range when a
    ///   block fails its checks (the events before it were delivered); whatever `body` throws.
    public func read(_ stream: String, from position: StartPosition = .streamDefault, _ body: (LogEventView) throws -> Bool) throws {
        try read(stream, from: position, catalog: false, body)
    }

    /// `read`, for a `catalog` lookup too (see `ReaderPool.catchUp`).
    func read(_ stream: String, from position: StartPosition, catalog: Bool, _ body: (LogEventView) throws -> Bool) throws {
        try readers.withReader(catalog: catalog) { reader in
            let state = try loadForReading(stream, reader)
            var next = try startSequence(state, position, reader)
            let pageSize = 32
            while true {
                var stop = false
                let rows = try BlockStore.blocks(of: state, atOrAfter: next, limit: pageSize, on: reader.connection) {
                    header, stored, rowFirst, rowLast in
                    guard let header else {
                        throw EventLogError(
                            .corruptBlock, "a stored block of stream \"\(stream)\" has impossible header columns (sequences \(rowFirst)...\(rowLast)); run verify.",
                            path: path, stream: stream, sequences: UInt64(max(1, rowFirst))...UInt64(max(1, rowFirst, rowLast)))
                    }
                    do {
                        let more = try reader.decoder.decode(header, stored: stored, from: next, body)
                        next = header.lastSequence + 1
                        if !more { stop = true }
                        return more
                    } catch let error as EventLogError where error.code == .corruptBlock {
                        var named = error.naming(stream: stream)
                        named.path = path
                        throw named
                    }
                }
                if stop || rows < pageSize { return }
            }
        }
    }

    /// A cursor over the events of `stream` from `position` on; it holds one decoded block at a time.
    public func events(in stream: String, from position: StartPosition = .streamDefault) throws -> EventCursor {
        let reader = try readers.checkOut()
        do {
            let state = try loadForReading(stream, reader)
            let start = try startSequence(state, position, reader)
            return EventCursor(log: self, reader: reader, stream: state, next: start)
        } catch {
            readers.checkIn(reader)
            throw error
        }
    }

    /// Waits until every append observer (and so every persistent subject's observers) has been called
    /// for the commits made so far: the live feed is queued before an append is acknowledged.
    ///
    /// Returns at once when called from an observer callback, which runs on the feed itself. Not for use
    /// while holding up a persistent subject's delivery from another thread (inside its observer), where
    /// it could wait for that delivery.
    public func waitForObservers() {
        observers.drain()
    }

    /// Calls `handler` with every commit to `stream` from now on (live tail). Callbacks run in commit
    /// order on the log's notification queue, after the commit is durable.
    ///
    /// For a gap-free hand-over from history to live: observe first, then read history up to the
    /// current last sequence, then take the observed commits whose sequences are past what was read.
    public func observeAppends(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) -> AppendObservation {
        observers.add(stream: stream, handler)
    }

    /// Calls `handler` with every commit to `stream` from now on, in commit order, on the thread that
    /// committed it, before its appends are answered (a live tail with no thread hop), or, while the
    /// stream has more such observers than a few, on the notification queue. It may run while the next
    /// commit waits, so it must be short, must not block, and must not append to or read this log
    /// (that could wait for itself); hand anything longer to a queue of your own.
    package func observeAppendsImmediately(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) -> AppendObservation {
        observers.add(stream: stream, immediately: true, handler)
    }

    func loadForReading(_ stream: String, _ reader: ReaderConnection) throws -> StreamState {
        guard let state = try StreamCatalog.load(stream, on: reader.connection) else {
            throw EventLogError(
                .streamNotFound, "no stream named \"\(stream)\" exists; create it with createStream first.",
                path: path, stream: stream)
        }
        return state
    }

    /// Resolves `position` to the first sequence to deliver.
    func startSequence(_ state: StreamState, _ position: StartPosition, _ reader: ReaderConnection) throws -> UInt64 {
        try state.startSequence(position) { time in
            try BlockStore.firstSequence(
                streamID: state.id, atOrAfter: time, lastSequence: state.lastSequence, decoder: reader.decoder, on: reader.connection)
        }
    }
}

/// A pull-style reader over one stream: `next()` returns events in sequence order, fetching and
/// decoding one block at a time, and nil once it has caught up with the appends made so far.
///
/// Thread-safety: not Sendable; use it from one task or thread. It holds a read connection until
/// it is released.
public final class EventCursor {
    private let log: EventLog
    private let reader: ReaderConnection
    private let stream: StreamState
    private var position: UInt64
    private var buffered: [LogEvent] = []
    private var index = 0

    init(log: EventLog, reader: ReaderConnection, stream: StreamState, next: UInt64) {
        self.log = log
        self.reader = reader
        self.stream = stream
        self.position = next
    }

    deinit { log.readers.checkIn(reader) }

    /// The sequence the next event will have at least.
    public var nextSequence: UInt64 { position }

    /// The next event, or nil when none is stored past the last one returned (yet).
    public func next() throws -> LogEvent? {
        if index == buffered.count {
            buffered.removeAll(keepingCapacity: true)
            index = 0
            try fill()
            if buffered.isEmpty { return nil }
        }
        let event = buffered[index]
        index += 1
        position = event.sequence + 1
        return event
    }

    private func fill() throws {
        try log.readers.catchUp()
        let from = position
        let name = stream.name, path = log.path
        _ = try BlockStore.blocks(of: stream, atOrAfter: from, limit: 1, on: reader.connection) {
            header, stored, rowFirst, rowLast in
            guard let header else {
                throw EventLogError(
                    .corruptBlock, "a stored block has impossible header columns (sequences \(rowFirst)...\(rowLast)); run verify.",
                    path: path, stream: name)
            }
            do {
                _ = try reader.decoder.decode(header, stored: stored, from: from) { event in
                    buffered.append(event.copy())
                    return true
                }
            } catch let error as EventLogError where error.code == .corruptBlock {
                var named = error.naming(stream: name)
                named.path = path
                throw named
            }
            return true
        }
    }
}

@available(*, unavailable)
extension EventCursor: Sendable {}
