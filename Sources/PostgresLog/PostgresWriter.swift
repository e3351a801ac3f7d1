import EventLog
import StreamModel

/// The writer of a `PostgresLog`: commits each batch of appends in one transaction on its own
/// connection, and reconnects after the connection broke.
///
/// One batch: lock the rows of its streams (in name order) and read which of its message ids they
/// keep, check each append's ids and then check and number it as the SQLite log would, frame and
/// compress each stream's new events into blocks, apply the streams' capacity and byte limits, move
/// the rows, insert the blocks and the new ids, and notify `streamd` with the streams that moved (when
/// another process listens: `PostgresTail.ringsForOthers`); then commit, answer each append and hand
/// the commits to the tail. An append that fails its checks
/// is answered alone; a failed transaction answers every append of the batch with the failure, and
/// none of it is stored (or, when the connection broke during the commit, it may be: the error says so).
///
/// A batch takes one round trip instead of two when the writer already knows its streams' rows (it
/// wrote them last), none of its appends carries a message id or fails a check, and no stream's limits
/// need its blocks read: it is numbered from the rows as the writer left them, and sent in one pipeline
/// that is its own transaction (PostgreSQL commits a pipeline's statements together at its end): one
/// statement per stream, in `PostgresCatalog.lockOrder` as the long way's lock, that takes the row
/// by updating it and then inserts the blocks. It fails if another writer moved or deleted a row
/// meanwhile (`PostgresCatalog.moveStatement`, `PostgresBlocks.contendedState`); the batch is then
/// done again the long way, and its streams take the long way for the next `contendedBatches`
/// batches. Every batch deletes and inserts blocks only once it holds its streams' rows, so two
/// writers never wait for each other's blocks.
/// Thread-safety: not Sendable; it lives on the writer thread (the work queue's committer).
final class PostgresWriter: QueueCommitter {
    private var connection: PostgresConnection?
    private let address: PostgresAddress
    private let options: EventLogOptions
    private let encoder: BlockEncoder
    private let decoder: BlockDecoder
    private let tail: PostgresTail
    /// The rows this writer last saw or wrote, with their versions (`PostgresCatalog.version`).
    private var known: [String: (state: StreamState, version: Int64)] = [:]
    /// Streams another writer moved under a batch of this one, with how many more batches take the
    /// long way.
    private var contended: [String: Int] = [:]
    static let contendedBatches = 64
    /// Whether the server's disk was full at the last commit: the storage observer hears each change once.
    private var isFull = false {
        didSet { if isFull != oldValue { options.storageObserver?(StorageCondition(isFull: isFull, server: address.description)) } }
    }
    /// How many rows `known` holds before it starts over.
    static let knownLimit = 10_000

    init(connection: PostgresConnection, options: EventLogOptions, encoder: BlockEncoder, decoder: BlockDecoder, tail: PostgresTail) {
        self.connection = connection
        address = connection.address
        self.options = options
        self.encoder = encoder
        self.decoder = decoder
        self.tail = tail
        tail.writerConnected(connection.backendPID)
    }

    func process(_ jobs: [AppendRequest]) {
        process(jobs, retrying: true)
    }

    /// What one attempt at a batch came to.
    private struct Outcome {
        var accepted: [(request: AppendRequest, receipt: AppendReceipt, stream: StreamState)] = []
        /// The appends that failed their checks, by index in the batch, with why.
        var refused: [Int: EventLogError] = [:]
        /// Whether the batch was numbered from `known` and sent in one round trip.
        var quick = false
        /// Whether the statements that end with the commit were sent.
        var committing = false
        /// What the server warned of while committing: a commit whose wait for its synchronous standby
        /// was cancelled is stored on the primary alone.
        var warnings: [String] = []
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
        var outcome = Outcome()
        do {
            try commit(jobs, on: connection, into: &outcome)
        } catch {
            var failure = error as? EventLogError ?? EventLogError(.postgres, "an append failed: \(error)")
            if failure.code == .diskFull { isFull = true }
            // A quick batch's transaction ended with its pipeline; the long way's is still open.
            if connection.isOpen, !outcome.quick { _ = try? connection.execute("ROLLBACK") }
            known = [:]
            if outcome.committing, failure.sqlState != nil, failure.sql != "COMMIT" {
                // The server refused a statement before the commit (or ended the session there, as a
                // restart or failover does), so it skipped the commit: nothing of the batch is stored.
                outcome.committing = false
            }
            if outcome.quick, let state = failure.sqlState, state == PostgresBlocks.contendedState {
                // Another writer moved a stream since this one saw it: nothing is stored or answered yet.
                for request in jobs { contended[request.stream] = Self.contendedBatches }
                process(jobs, retrying: retrying)
                return
            }
            if failure.code == .unavailable || !connection.isOpen { self.connection = nil }
            answer(outcome.refused, of: jobs)
            let unanswered = jobs.indices.filter { outcome.refused[$0] == nil }.map { jobs[$0] }
            if failure.code == .unavailable, !outcome.committing, retrying {
                process(unanswered, retrying: false)
                return
            }
            if failure.code == .unavailable, outcome.committing {
                tail.recheck(jobs.map(\.stream))
                failure = EventLogError(
                    .unavailable,
                    "the connection to PostgreSQL at \(address) broke while the append was being committed, so it may or may not be stored; read the stream to see, then append again if it is missing.",
                    sql: "COMMIT")
            }
            for request in unanswered { request.completion(.failure(failure.naming(stream: request.stream))) }
            return
        }
        isFull = false
        answer(outcome.refused, of: jobs)
        tail.committed(outcome.accepted.map { PostgresTail.LocalCommit(receipt: $0.receipt, kind: $0.request.kind, payloads: $0.request.payloads, stream: $0.stream) })
        guard outcome.warnings.isEmpty else {
            // Stored, and readers see it, but not as durable as an acknowledgement promises: say so,
            // so that a publisher sends it again (its message ids find the stored events).
            let failure = EventLogError(
                .unavailable,
                "PostgreSQL at \(address) stored the append but warned while committing it (\(outcome.warnings.joined(separator: "; "))), so it was not acknowledged; it may be lost should the server fail before a standby has it. Publish it again with the same message ids: they are answered with the stored events.",
                sql: "COMMIT")
            for item in outcome.accepted { item.request.completion(.failure(failure.naming(stream: item.request.stream))) }
            return
        }
        for item in outcome.accepted { item.request.completion(.success(item.receipt)) }
    }

    private func answer(_ refused: [Int: EventLogError], of jobs: [AppendRequest]) {
        for (index, error) in refused.sorted(by: { $0.key < $1.key }) { jobs[index].completion(.failure(error)) }
    }

    func processed() {}

    /// Numbers, stores, announces and commits `requests` in one transaction; puts those that fail their
    /// checks in `outcome.refused` and the others, with their receipts, in `outcome.accepted`.
    ///
    /// Two round trips to the server (one when the batch is quick, see the type): the transaction's
    /// start, the row locks and the kept ids, then the rows with their blocks, the new ids, the
    /// notification (when another process listens) and the commit, sent together. A stream with an age or size
    /// limit takes a few more, since applying them reads its blocks (inserted first, then).
    private func commit(_ requests: [AppendRequest], on connection: PostgresConnection, into outcome: inout Outcome) throws {
        let names = PostgresCatalog.lockOrder(requests.map(\.stream))
        let ids = Array(Set(requests.flatMap { $0.messageIDs.compactMap { $0 } }))
        let remembered = names.compactMap { known[$0] }
        outcome.quick =
            ids.isEmpty && remembered.count == names.count && names.allSatisfy { contended[$0] == nil }
            && !remembered.contains { PostgresRetention.readsBlocks($0.state) }
        var states: [String: StreamState] = [:]
        var versions: [String: Int64] = [:]
        var kept: [String: [String: StoredMessageID]] = [:]
        var statements: [(sql: String, parameters: [PostgresValue])] = []
        if outcome.quick {
            for (name, row) in zip(names, remembered) { (states[name], versions[name]) = (row.state, row.version) }
        } else {
            statements = [("BEGIN", []), PostgresCatalog.loadStatement(names, locking: true)]
            if !ids.isEmpty {
                statements.append(PostgresMessageIDs.lookupStatement(names: names, ids: ids, defaultEvents: options.deduplicationWindow, now: options.clock()))
            }
            let read = try connection.pipeline(statements)
            statements = []
            states = PostgresCatalog.states(read[1])
            versions = PostgresCatalog.versions(read[1])
            kept = ids.isEmpty ? [:] : PostgresMessageIDs.found(read[2])
            for name in names {
                if let count = contended[name] { contended[name] = count > 1 ? count - 1 : nil }
            }
        }
        let before = states
        let now = options.clock()
        var events: [String: [(LogEvent.Kind, [UInt8])]] = [:]
        var newIDs: [PostgresMessageIDs.Row] = []
        var carrying = Set<Int64>()
        for (index, request) in requests.enumerated() {
            do throws(EventLogError) {
                guard let state = states[request.stream] else {
                    throw EventLogError(
                        .streamNotFound, "no stream named \"\(request.stream)\" exists; create it with createStream first.", stream: request.stream)
                }
                try PostgresMessageIDs.check(request, against: kept[request.stream] ?? [:])
                try state.check(request, maximumEventBytes: options.maximumEventBytes, path: address.description)
            } catch {
                outcome.refused[index] = error
                continue
            }
            var state = states[request.stream]!
            let receipt = state.take(request, at: now)
            states[request.stream] = state
            outcome.accepted.append((request, receipt, state))
            events[request.stream, default: []] += request.payloads.map { (request.kind, $0) }
            // A window of no events keeps no id (the prune forgets what an earlier window kept).
            let keeps = options.deduplication(of: state.policy).events != 0
            if request.messageIDs.contains(where: { $0 != nil }) { carrying.insert(state.id) }
            for (offset, id) in request.messageIDs.enumerated() {
                guard let id else { continue }
                let sequence = receipt.firstSequence + UInt64(offset)
                kept[request.stream, default: [:]][id] = StoredMessageID(id: id, sequence: sequence, timestamp: receipt.timestamp)
                if keeps { newIDs.append(PostgresMessageIDs.Row(streamID: state.id, id: id, sequence: sequence, timestamp: receipt.timestamp)) }
            }
        }
        if outcome.quick, !outcome.refused.isEmpty || requests.contains(where: \.payloads.isEmpty) {
            // A check failed against rows that may be out of date, or an append stores nothing the
            // insert could catch them with: decide it under the locks.
            for name in names { known[name] = nil }
            outcome = Outcome()
            return try commit(requests, on: connection, into: &outcome)
        }
        let recordIDs = PostgresMessageIDs.recordStatements(
            newIDs, carrying: carrying, moved: Array(states.values), window: options.deduplication(of:), now: now)
        var blocks: [String: [PostgresBlocks.Row]] = [:]
        var moved: [StreamState] = []
        for name in names {
            guard var state = states[name], let old = before[name], state.lastSequence > old.lastSequence, let streamEvents = events[name]
            else { continue }
            var next = old.lastSequence + 1
            let timestamp = state.lastTimestamp
            // The blocks wholly before the first sequence the capacity keeps are not stored: the row's
            // update, sent before them, deletes only the blocks already there.
            let kept = PostgresRetention.firstWithinCapacity(state)
            for block in encoder.encode(streamEvents) {
                let header = BlockHeader(
                    firstSequence: next, lastSequence: next + UInt64(block.count) - 1, firstTimestamp: timestamp, lastTimestamp: timestamp,
                    count: block.count, codec: block.codec, rawSize: block.rawSize, crc: block.crc)
                next += UInt64(block.count)
                guard header.lastSequence >= kept else { continue }
                blocks[name, default: []].append(PostgresBlocks.Row(streamID: state.id, header: header, bytes: block.bytes))
                state.storedBytes += Int64(block.bytes.count)
            }
            moved.append(state)
        }
        if known.count > Self.knownLimit { known = [:] }
        for name in names where contended[name] == nil { known[name] = before[name].flatMap { state in versions[name].map { (state, $0) } } }
        var drops: [RetentionDrop] = []
        if moved.contains(where: PostgresRetention.readsBlocks) {
            try PostgresBlocks.insert(moved.flatMap { blocks[$0.name] ?? [] }, on: connection)
            for (sql, parameters) in recordIDs { try connection.execute(sql, parameters) }
            for var state in moved {
                if let dropped = try PostgresRetention.apply(&state, now: now, decoder: decoder, on: connection) { drops.append(dropped) }
                try PostgresCatalog.updatePositions(state, on: connection)
                known[state.name] = nil
            }
            if tail.ringsForOthers { try PostgresTail.notify(moved, on: connection) }
            outcome.committing = true
            try connection.execute("COMMIT")
            outcome.warnings = connection.warnings
        } else {
            var moves: [(state: StreamState, result: Int)] = []
            for var state in moved {
                // The blocks' insert is what finds a row deleted meanwhile, and a moved stream always
                // has one: its capacity keeps at least its last event.
                precondition(blocks[state.name]?.isEmpty == false, "a stream moved by an append has a block to insert")
                let first = state.firstSequence
                state.firstSequence = PostgresRetention.firstWithinCapacity(state)
                moves.append((state, statements.count))
                // Every moved stream has its version (-1, matching none, would fail the batch as moved).
                statements.append(
                    PostgresCatalog.moveStatement(
                        state, first: state.firstSequence, from: first, version: versions[state.name, default: -1], blocks: blocks[state.name] ?? []))
                if let dropped = PostgresRetention.drop(state, before: first, limits: [.capacity]) { drops.append(dropped) }
            }
            statements += recordIDs
            if !moved.isEmpty, tail.ringsForOthers { statements.append(PostgresTail.notifyStatement(moved)) }
            // A quick batch is the pipeline's own transaction, committed at its end; the long way
            // began one with its row locks.
            if !outcome.quick { statements.append(("COMMIT", [])) }
            outcome.committing = true
            let results = try connection.pipeline(statements)
            outcome.warnings = connection.warnings
            for (var state, result) in moves where contended[state.name] == nil {
                // The server counted the bytes of the blocks a capacity dropped.
                state.storedBytes = results[result].int64(0, 1)
                known[state.name] = (state, results[result].int64(0, 0))
            }
        }
        // Only when lines are logged, as in the SQLite log (streamd sets it at debug level).
        if let observer = options.retentionObserver { for drop in drops { observer(drop) } }
    }

    private func connected() throws(EventLogError) -> PostgresConnection {
        if let connection, connection.isUsableAfterIdling { return connection }
        let made = try PostgresConnection(address)
        connection = made
        // Another server may answer now (a failover): the rows remembered are of the old one, and a
        // row version (`xmin`) may mean another row there.
        known = [:]
        tail.writerConnected(made.backendPID)
        return made
    }
}

@available(*, unavailable)
extension PostgresWriter: Sendable {}
