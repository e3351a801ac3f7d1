/// The single writer: owns the write connection and commits everything queued since its last commit
/// in one transaction (group commit), then answers each append.
///
/// Thread-safety: not Sendable; it lives on the log's writer thread and is reached only through
/// `WriteJob`s run there.
final class LogWriter {
    let connection: SQLiteConnection
    let options: EventLogOptions
    let observers: AppendObservers
    let decoder: BlockDecoder
    private let deflater: Deflater
    private var framer: BlockFramer
    private var cache: [String: StreamState] = [:]
    /// Blocks each cached stream committed since its catalog row's positions were last written (see
    /// LogWriter+Positions.swift); a stream missing here is written at its next commit.
    var unsavedBlocks: [String: Int] = [:]
    private var dataVersion: Int64 = -1

    init(connection: SQLiteConnection, options: EventLogOptions, observers: AppendObservers) throws(EventLogError) {
        self.connection = connection
        self.options = options
        self.observers = observers
        decoder = try BlockDecoder()
        deflater = try Deflater(level: options.compressionLevel)
        framer = BlockFramer(capacity: options.maximumBlockBytes + 64)
    }

    /// Runs the writer thread's loop until the queue is closed and drained.
    func run(_ queue: WriteQueue) {
        while let jobs = queue.acquire() {
            drain(queue, jobs)
        }
        savePositions()
    }

    /// Runs a leading appender's own job in one commit, then gives up the committer role.
    func lead(_ queue: WriteQueue, _ job: WriteJob) {
        process([job])
        queue.release()
    }

    /// Runs `jobs` and everything queued meanwhile, then gives up the committer role.
    func drain(_ queue: WriteQueue, _ jobs: [WriteJob]) {
        var jobs = jobs
        while true {
            process(jobs)
            guard let more = queue.takeMoreOrRelease() else { return }
            jobs = more
        }
    }

    private func process(_ jobs: [WriteJob]) {
        // Consecutive appends share one commit; admin jobs run alone, in arrival order.
        var appends: [AppendRequest] = []
        for job in jobs {
            switch job {
            case .append(let request):
                appends.append(request)
            case .admin(let work):
                if !appends.isEmpty { commit(appends); appends.removeAll() }
                work(self)
            }
        }
        if !appends.isEmpty { commit(appends) }
    }

    // MARK: Transactions

    /// Runs `body` in a write transaction, rolling back (and forgetting cached catalog state) on failure.
    func transaction<R>(_ body: () throws -> R) throws(EventLogError) -> R {
        try connection.statement("BEGIN IMMEDIATE").run()
        do {
            // Another connection committed since our last transaction: the catalog cache may be stale.
            let version = try connection.integer("PRAGMA data_version")
            if version != dataVersion { forgetAll() }
            let result = try body()
            try connection.statement("COMMIT").run()
            dataVersion = version
            return result
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            forgetAll()
            throw error as? EventLogError ?? EventLogError(.io, "\(error)", path: connection.path)
        }
    }

    /// The stream's cached catalog state, loaded on first use.
    func stream(_ name: String) throws(EventLogError) -> StreamState {
        if let state = cache[name] { return state }
        guard let state = try StreamCatalog.load(name, on: connection) else {
            throw EventLogError(
                .streamNotFound, "no stream named \"\(name)\" exists; create it with createStream first.",
                path: connection.path, stream: name)
        }
        cache[name] = state
        return state
    }

    /// The time stamped on commits, in microseconds since the Unix epoch.
    func now() -> Int64 { options.clock() }

    func remember(_ state: StreamState) { cache[state.name] = state }

    /// The cached state of `name`, without loading it.
    func cached(_ name: String) -> StreamState? { cache[name] }

    func forget(_ name: String) {
        cache[name] = nil
        unsavedBlocks[name] = nil
    }

    private func forgetAll() {
        cache.removeAll()
        unsavedBlocks.removeAll()
    }

    // MARK: Group commit

    private struct Accepted {
        var request: AppendRequest
        var receipt: AppendReceipt
    }

    /// Commits every request that can go in, in one transaction, then answers all of them.
    private func commit(_ requests: [AppendRequest]) {
        var accepted: [Accepted] = []
        var rejected: [(AppendRequest, EventLogError)] = []
        var rejectedIndices = Set<Int>()
        var failedStreams: [String: EventLogError] = [:]
        var touched: [String: StreamState] = [:]
        var order: [String] = []
        var perStream: [String: [Int]] = [:]
        var unsavedAfterCommit: [String: Int] = [:]
        let now = self.now()
        let outcome: Result<Void, EventLogError>
        do {
            outcome = .success(try transaction { () throws -> Void in
                for (index, request) in requests.enumerated() {
                    var state: StreamState
                    do {
                        state = try touched[request.stream] ?? stream(request.stream)
                        try check(request, against: state)
                    } catch {
                        rejected.append((request, error as? EventLogError ?? EventLogError(.io, "\(error)")))
                        rejectedIndices.insert(index)
                        continue
                    }
                    if touched[request.stream] == nil { order.append(request.stream) }
                    let timestamp = max(now, state.lastTimestamp)
                    let first = state.lastSequence + 1
                    state.lastSequence += UInt64(request.payloads.count)
                    state.lastTimestamp = timestamp
                    if let last = request.kinds.last, last != .value { state.terminal = last.rawValue }
                    touched[request.stream] = state
                    perStream[request.stream, default: []].append(accepted.count)
                    accepted.append(Accepted(
                        request: request,
                        receipt: AppendReceipt(
                            stream: request.stream, firstSequence: first, lastSequence: state.lastSequence,
                            timestamp: timestamp)))
                }
                // Each stream's writes under a savepoint of their own: a failure of one stream (a damaged
                // catalog row, say) fails that stream's appends only, not the others sharing the commit.
                // A commit for one stream needs none: its failure fails the transaction, and so the same
                // appends, two statements sooner.
                for name in order {
                    guard var state = touched[name] else { continue }
                    func write() throws {
                        let before = try stream(name)
                        let blocks = try writeBlocks(perStream[name]?.map { accepted[$0] } ?? [], into: &state)
                        try applyRetention(&state, now: now)
                        unsavedAfterCommit[name] = try savePositionsIfDue(state, before: before, adding: blocks)
                    }
                    guard order.count > 1 else {
                        try write()
                        touched[name] = state
                        continue
                    }
                    do {
                        try connection.statement("SAVEPOINT stream_writes").run()
                        try write()
                        try connection.statement("RELEASE stream_writes").run()
                        touched[name] = state
                    } catch {
                        // Some failures (a full disk, an I/O error) make SQLite roll the whole transaction
                        // back: then the whole commit fails, with that error.
                        guard connection.inTransaction else { throw error }
                        try connection.execute("ROLLBACK TO stream_writes")
                        try connection.execute("RELEASE stream_writes")
                        touched[name] = nil
                        failedStreams[name] = (error as? EventLogError ?? EventLogError(.io, "\(error)")).naming(stream: name)
                    }
                }
            })
        } catch {
            outcome = .failure(error)
        }
        for (request, error) in rejected { request.completion(.failure(error)) }
        switch outcome {
        case .success:
            for state in touched.values { remember(state) }
            for (name, count) in unsavedAfterCommit { unsavedBlocks[name] = count }
            for name in failedStreams.keys { forget(name) }
            let committed = accepted.filter { failedStreams[$0.request.stream] == nil }
            // Observers are queued before the acks, so once an append returns its commit is on its way to them.
            notify(committed)
            for item in accepted {
                if let error = failedStreams[item.request.stream] {
                    item.request.completion(.failure(error))
                } else {
                    item.request.completion(.success(item.receipt))
                }
            }
        case .failure(let error):
            // Every request not already refused on its own gets the failure, including those the
            // transaction never reached (it may fail to begin at all, e.g. on a busy database).
            for (index, request) in requests.enumerated() where !rejectedIndices.contains(index) {
                request.completion(.failure(error.naming(stream: request.stream)))
            }
        }
    }

    private func check(_ request: AppendRequest, against state: StreamState) throws(EventLogError) {
        if state.terminal != 0 {
            let how = state.terminal == LogEvent.Kind.completed.rawValue ? "completed" : "failed"
            throw EventLogError(
                .streamEnded,
                "stream \"\(state.name)\" \(how) at sequence \(state.lastSequence) and accepts no more events; delete it to start over.",
                path: connection.path, stream: state.name)
        }
        if state.lastSequence + UInt64(request.payloads.count) > BlockStore.maximumSequence {
            throw EventLogError(
                .invalidArgument,
                "stream \"\(state.name)\" has reached sequence \(state.lastSequence), and sequences end at \(BlockStore.maximumSequence); copy what you need to a new stream.",
                path: connection.path, stream: state.name)
        }
        for (index, payload) in request.payloads.enumerated() where payload.count > options.maximumEventBytes {
            throw EventLogError(
                .invalidArgument,
                "event \(index) of the append is \(payload.count) bytes, more than the \(options.maximumEventBytes) allowed; split it.",
                stream: state.name)
        }
    }

    /// Frames the accepted events of one stream into blocks and inserts them; returns how many.
    private func writeBlocks(_ items: [Accepted], into state: inout StreamState) throws -> Int {
        var inserted = 0
        var header: BlockHeader?
        for item in items {
            var sequence = item.receipt.firstSequence
            if let encoded = item.request.encoded {
                if let open = header {
                    try flush(open, into: &state, counting: &inserted)
                    header = nil
                }
                for block in encoded {
                    let header = BlockHeader(
                        firstSequence: sequence, lastSequence: sequence + UInt64(block.count) - 1,
                        firstTimestamp: item.receipt.timestamp, lastTimestamp: item.receipt.timestamp,
                        count: block.count, codec: block.codec, rawSize: block.rawSize, crc: block.crc)
                    try block.bytes.withUnsafeBytes { bytes in
                        try BlockStore.insert(streamID: state.id, header: header, payload: bytes, on: connection)
                    }
                    inserted += 1
                    state.storedBytes += Int64(block.bytes.count)
                    sequence += UInt64(block.count)
                }
                continue
            }
            for (index, payload) in item.request.payloads.enumerated() {
                let framed = BlockFramer.framedSize(payloadCount: payload.count)
                if let open = header,
                    open.count >= options.maximumEventsPerBlock || framer.bytes.count + framed > options.maximumBlockBytes
                {
                    try flush(open, into: &state, counting: &inserted)
                    header = nil
                }
                if header == nil {
                    framer.reset(firstTimestamp: item.receipt.timestamp)
                    header = BlockHeader(
                        firstSequence: sequence, lastSequence: sequence, firstTimestamp: item.receipt.timestamp,
                        lastTimestamp: item.receipt.timestamp, count: 0, codec: .raw, rawSize: 0, crc: 0)
                }
                payload.withUnsafeBytes { bytes in
                    framer.append(kind: item.request.kinds[index], timestamp: item.receipt.timestamp, payload: bytes)
                }
                header!.lastSequence = sequence
                header!.lastTimestamp = item.receipt.timestamp
                header!.count += 1
                sequence += 1
            }
        }
        if let open = header { try flush(open, into: &state, counting: &inserted) }
        return inserted
    }

    private func flush(_ open: BlockHeader, into state: inout StreamState, counting inserted: inout Int) throws {
        inserted += 1
        var header = open
        header.rawSize = framer.bytes.count
        let stored = try framer.bytes.withUnsafeBytes { raw -> Int in
            try deflater.compress(raw) { packed -> Int in
                let payload = packed ?? raw
                header.codec = packed == nil ? .raw : .deflate
                header.crc = crc32Checksum(payload)
                try BlockStore.insert(streamID: state.id, header: header, payload: payload, on: connection)
                return payload.count
            }
        }
        state.storedBytes += Int64(stored)
    }

    // MARK: After commit

    private func notify(_ accepted: [Accepted]) {
        guard observers.isObserved else { return }
        for item in accepted where observers.isObserved(item.request.stream) {
            let receipt = item.receipt
            var events: [LogEvent] = []
            events.reserveCapacity(item.request.payloads.count)
            for (index, payload) in item.request.payloads.enumerated() {
                events.append(LogEvent(
                    sequence: receipt.firstSequence + UInt64(index), timestamp: receipt.timestamp,
                    kind: item.request.kinds[index], payload: payload))
            }
            observers.deliver(CommittedAppend(
                stream: receipt.stream, firstSequence: receipt.firstSequence, lastSequence: receipt.lastSequence,
                timestamp: receipt.timestamp, events: events, streamCreated: cache[receipt.stream]?.created ?? 0))
        }
    }
}

@available(*, unavailable)
extension LogWriter: Sendable {}
