/// The group commit: everything queued since the last commit, in one transaction.
extension LogWriter {
    /// One append that passed its checks, with what it will be told.
    struct Accepted {
        var request: AppendRequest
        var receipt: AppendReceipt
        /// Its stream's place in the commit's `CommitStreams`.
        var slot: Int
    }

    /// Commits every request that can go in, in one transaction, then answers all of them.
    func commit(_ requests: [AppendRequest]) {
        // On a full disk appends would take the room deletes need: refuse them until it is back.
        if let fullDisk, fullDisk.stillFull(on: connection, now: false) {
            for request in requests { request.completion(.failure(fullDisk.refusal(stream: request.stream))) }
            return
        }
        var accepted: [Accepted] = []
        accepted.reserveCapacity(requests.count)
        var rejected: [(index: Int, error: EventLogError)] = []
        var streams = CommitStreams()
        let started = metrics.isEnabled ? ContinuousClock.now : nil
        let now = self.now()
        let outcome: Result<Void, EventLogError>
        do {
            outcome = .success(try transaction { () throws -> Void in
                for (index, request) in requests.enumerated() {
                    let known = streams.slot(of: request.stream)
                    var state: StreamState
                    do {
                        state = try known.map { streams[$0].state } ?? stream(request.stream)
                        try state.check(request, maximumEventBytes: options.maximumEventBytes, path: connection.path)
                    } catch {
                        rejected.append((index, error as? EventLogError ?? EventLogError(.io, "\(error)")))
                        continue
                    }
                    let receipt = state.take(request, at: now)
                    let slot = known ?? streams.add(state)
                    streams[slot].state = state
                    accepted.append(Accepted(request: request, receipt: receipt, slot: slot))
                }
                for slot in streams.indices { try writeStream(slot, of: &streams, accepted, now: now) }
            })
        } catch {
            outcome = .failure(error)
        }
        for (index, error) in rejected { requests[index].completion(.failure(error)) }
        switch outcome {
        case .success:
            if let started { recordMetrics(accepted, streams, since: started) }
            for part in streams.parts {
                if part.failure != nil {
                    forget(part.state.name)
                } else {
                    remember(part.state)
                    unsavedBlocks[part.state.name] = part.unsavedBlocks
                    marks?.record(id: part.state.id, created: part.state.created, last: part.state.lastSequence)
                }
            }
            // Observers are queued before the acks, so once an append returns its commit is on its way to them.
            notify(accepted.lazy.filter { streams[$0.slot].failure == nil })
            for item in accepted {
                if let error = streams[item.slot].failure {
                    item.request.completion(.failure(error))
                } else {
                    item.request.completion(.success(item.receipt))
                }
            }
        case .failure(let error):
            if error.code == .diskFull { _ = fullDisk?.filled(connection) }
            // Every request not already refused on its own gets the failure, including those the
            // transaction never reached (it may fail to begin at all, e.g. on a busy database).
            var refused = rejected.makeIterator()
            var nextRefused = refused.next()
            for (index, request) in requests.enumerated() {
                if index == nextRefused?.index {
                    nextRefused = refused.next()
                    continue
                }
                request.completion(.failure(error.naming(stream: request.stream)))
            }
        }
    }

    /// Counts a successful commit in the metrics: its duration, its events, and each stream's share.
    private func recordMetrics(_ accepted: [Accepted], _ streams: CommitStreams, since started: ContinuousClock.Instant) {
        metrics.committed(
            accepted.lazy.filter { streams[$0.slot].failure == nil }.map { ($0.request.stream, $0.request.payloads) }, since: started)
    }

    /// Writes the blocks and message ids of the stream in `slot`, applies its retention and saves its
    /// positions when due.
    ///
    /// Each stream's writes go under a savepoint of their own when the commit has several: a failure
    /// of one stream (a damaged catalog row, say) fails that stream's appends only, not the others
    /// sharing the commit. A commit for one stream needs none: its failure fails the transaction, and
    /// so the same appends, two statements sooner.
    func writeStream(_ slot: Int, of streams: inout CommitStreams, _ accepted: [Accepted], now: Int64) throws {
        var state = streams[slot].state
        func write() throws {
            let before = try stream(state.name)
            let appends = accepted.lazy.filter { $0.slot == slot }
            let blocks = try writeBlocks(appends, into: &state)
            try MessageIDStore.record(
                appends.map { ($0.request.messageIDs, $0.receipt.firstSequence, $0.receipt.timestamp) }, streamID: state.id,
                lastSequence: state.lastSequence, window: options.deduplication(of: state.policy), now: now, on: connection)
            try applyRetention(&state, now: now)
            streams[slot].unsavedBlocks = try savePositionsIfDue(state, before: before, adding: blocks)
        }
        guard streams.count > 1 else {
            try write()
            streams[slot].state = state
            return
        }
        do {
            try connection.statement("SAVEPOINT stream_writes").run()
            try write()
            try connection.statement("RELEASE stream_writes").run()
            streams[slot].state = state
        } catch {
            // Some failures (a full disk, an I/O error) make SQLite roll the whole transaction
            // back: then the whole commit fails, with that error.
            guard connection.inTransaction else { throw error }
            droppedByRetention.removeAll { $0.stream == state.name }
            try connection.execute("ROLLBACK TO stream_writes")
            try connection.execute("RELEASE stream_writes")
            streams[slot].failure = (error as? EventLogError ?? EventLogError(.io, "\(error)")).naming(stream: state.name)
        }
    }

    /// Frames the accepted events of one stream into blocks and inserts them; returns how many.
    private func writeBlocks(_ items: some Sequence<Accepted>, into state: inout StreamState) throws -> Int {
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
            for payload in item.request.payloads {
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
                    framer.append(kind: item.request.kind, timestamp: item.receipt.timestamp, payload: bytes)
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

    private func notify(_ accepted: some Sequence<Accepted>) {
        guard observers.isObserved else { return }
        for item in accepted {
            observers.deliver(
                item.receipt, kind: item.request.kind, payloads: item.request.payloads,
                streamCreated: cached(item.receipt.stream)?.created ?? 0)
        }
    }
}
