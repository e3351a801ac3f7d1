import EventLog
import StreamModel

/// The writer of a `PostgresLog`: commits each batch of appends in one transaction on its own
/// connection, and reconnects after the connection broke.
///
/// One batch: lock the rows of its streams (in name order) and read which of its message ids they
/// keep, check each append's ids and then check and number it as the SQLite log would, frame and
/// compress each stream's new events into blocks, apply the streams' capacity and byte limits, insert
/// the blocks and the new ids, move the rows, and notify `streamd` with the streams that moved; then
/// commit, answer each append and hand the commits to the tail. An append that fails its checks
/// is answered alone; a failed transaction answers every append of the batch with the failure, and
/// none of it is stored (or, when the connection broke during the commit, it may be: the error says so).
/// Thread-safety: not Sendable; it lives on the writer thread (the work queue's committer).
final class PostgresWriter: QueueCommitter {
    private var connection: PostgresConnection?
    private let address: PostgresAddress
    private let options: EventLogOptions
    private let encoder: BlockEncoder
    private let decoder: BlockDecoder
    private let tail: PostgresTail

    init(connection: PostgresConnection, options: EventLogOptions, encoder: BlockEncoder, decoder: BlockDecoder, tail: PostgresTail) {
        self.connection = connection
        address = connection.address
        self.options = options
        self.encoder = encoder
        self.decoder = decoder
        self.tail = tail
    }

    func process(_ jobs: [AppendRequest]) {
        process(jobs, retrying: true)
    }

    /// Commits `jobs`; with `retrying`, a batch whose connection broke before its commit was sent
    /// (so nothing of it is stored: the first after a failover finds the old primary gone) is tried
    /// once more on a new connection.
    private func process(_ jobs: [AppendRequest], retrying: Bool) {
        let connection: PostgresConnection
        do {
            connection = try connected()
        } catch {
            for request in jobs { request.completion(.failure(error.naming(stream: request.stream))) }
            return
        }
        var accepted: [(request: AppendRequest, receipt: AppendReceipt, stream: StreamState)] = []
        var refused = [Bool](repeating: false, count: jobs.count)
        var committing = false
        do {
            try commit(jobs, on: connection, accepting: &accepted, refusing: &refused, committing: &committing)
        } catch {
            var failure = error as? EventLogError ?? EventLogError(.postgres, "an append failed: \(error)")
            if connection.isOpen { _ = try? connection.execute("ROLLBACK") }
            if failure.code == .unavailable || !connection.isOpen { self.connection = nil }
            let unanswered = zip(jobs, refused).filter { !$0.1 }.map(\.0)
            if failure.code == .unavailable, !committing, retrying {
                process(unanswered, retrying: false)
                return
            }
            if failure.code == .unavailable, committing {
                failure = EventLogError(
                    .unavailable,
                    "the connection to PostgreSQL at \(address) broke while the append was being committed, so it may or may not be stored; read the stream to see, then append again if it is missing.",
                    sql: "COMMIT")
            }
            for request in unanswered { request.completion(.failure(failure.naming(stream: request.stream))) }
            return
        }
        tail.committed(accepted.map { PostgresTail.LocalCommit(receipt: $0.receipt, kind: $0.request.kind, payloads: $0.request.payloads, stream: $0.stream) })
        for item in accepted { item.request.completion(.success(item.receipt)) }
    }

    func processed() {}

    /// Numbers, stores, announces and commits `requests` in one transaction; answers those that fail
    /// their checks (marking them in `refused`) and puts the others, with their receipts, in
    /// `accepted`. `committing` is set once the statements that end with the commit are sent.
    ///
    /// Two round trips to the server: the transaction's start, the row locks and the kept ids, then the
    /// blocks, the new ids, the rows, the notification and the commit, sent together. A stream with an
    /// age or size limit takes a few more, since applying them reads its blocks.
    private func commit(
        _ requests: [AppendRequest], on connection: PostgresConnection,
        accepting accepted: inout [(request: AppendRequest, receipt: AppendReceipt, stream: StreamState)], refusing refused: inout [Bool],
        committing: inout Bool
    ) throws {
        let names = Array(Set(requests.map(\.stream))).sorted()
        let ids = Array(Set(requests.flatMap { $0.messageIDs.compactMap { $0 } }))
        var reads: [(sql: String, parameters: [PostgresValue])] = [("BEGIN", []), PostgresCatalog.loadStatement(names, locking: true)]
        if !ids.isEmpty { reads.append(PostgresMessageIDs.lookupStatement(names: names, ids: ids, window: options.deduplicationWindow)) }
        let read = try connection.pipeline(reads)
        var states = PostgresCatalog.states(read[1])
        var kept = ids.isEmpty ? [:] : PostgresMessageIDs.found(read[2])
        let before = states
        let now = options.clock()
        var events: [String: [(LogEvent.Kind, [UInt8])]] = [:]
        var newIDs: [PostgresMessageIDs.Row] = []
        for (index, request) in requests.enumerated() {
            do throws(EventLogError) {
                guard let state = states[request.stream] else {
                    throw EventLogError(
                        .streamNotFound, "no stream named \"\(request.stream)\" exists; create it with createStream first.", stream: request.stream)
                }
                try PostgresMessageIDs.check(request, against: kept[request.stream] ?? [:])
                try state.check(request, maximumEventBytes: options.maximumEventBytes, path: address.description)
            } catch {
                refused[index] = true
                request.completion(.failure(error))
                continue
            }
            var state = states[request.stream]!
            let receipt = state.take(request, at: now)
            states[request.stream] = state
            accepted.append((request, receipt, state))
            events[request.stream, default: []] += request.payloads.map { (request.kind, $0) }
            for (offset, id) in request.messageIDs.enumerated() {
                guard let id else { continue }
                let sequence = receipt.firstSequence + UInt64(offset)
                kept[request.stream, default: [:]][id] = StoredMessageID(id: id, sequence: sequence, timestamp: receipt.timestamp)
                newIDs.append(PostgresMessageIDs.Row(streamID: state.id, id: id, sequence: sequence, timestamp: receipt.timestamp))
            }
        }
        let recordIDs = PostgresMessageIDs.recordStatements(newIDs, moved: Array(states.values), window: options.deduplicationWindow)
        var rows: [PostgresBlocks.Row] = []
        var moved: [StreamState] = []
        for name in names {
            guard var state = states[name], let old = before[name], state.lastSequence > old.lastSequence, let streamEvents = events[name] else { continue }
            var next = old.lastSequence + 1
            let timestamp = state.lastTimestamp
            for block in encoder.encode(streamEvents) {
                let header = BlockHeader(
                    firstSequence: next, lastSequence: next + UInt64(block.count) - 1, firstTimestamp: timestamp, lastTimestamp: timestamp,
                    count: block.count, codec: block.codec, rawSize: block.rawSize, crc: block.crc)
                rows.append(PostgresBlocks.Row(streamID: state.id, header: header, bytes: block.bytes))
                state.storedBytes += Int64(block.bytes.count)
                next += UInt64(block.count)
            }
            moved.append(state)
        }
        var drops: [RetentionDrop] = []
        if moved.contains(where: PostgresRetention.readsBlocks) {
            try PostgresBlocks.insert(rows, on: connection)
            for (sql, parameters) in recordIDs { try connection.execute(sql, parameters) }
            for var state in moved {
                if let dropped = try PostgresRetention.apply(&state, now: now, decoder: decoder, on: connection) { drops.append(dropped) }
                try PostgresCatalog.updatePositions(state, on: connection)
            }
            try PostgresTail.notify(moved, on: connection)
            committing = true
            try connection.execute("COMMIT")
        } else {
            var statements = rows.isEmpty ? [] : [PostgresBlocks.insertStatement(rows)]
            statements += recordIDs
            for state in moved {
                var kept = state
                kept.firstSequence = PostgresRetention.firstWithinCapacity(state)
                statements.append(PostgresCatalog.moveStatement(state, first: kept.firstSequence))
                if let dropped = PostgresRetention.drop(kept, before: state.firstSequence, limits: [.capacity]) { drops.append(dropped) }
            }
            if !moved.isEmpty { statements.append(PostgresTail.notifyStatement(moved)) }
            statements.append(("COMMIT", []))
            committing = true
            try connection.pipeline(statements)
        }
        // Only when lines are logged, as in the SQLite log (streamd sets it at debug level).
        if let observer = options.retentionObserver { for drop in drops { observer(drop) } }
    }

    private func connected() throws(EventLogError) -> PostgresConnection {
        if let connection, connection.isUsableAfterIdling { return connection }
        let made = try PostgresConnection(address)
        connection = made
        return made
    }
}

@available(*, unavailable)
extension PostgresWriter: Sendable {}
