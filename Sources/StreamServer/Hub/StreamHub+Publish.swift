import Dispatch
import EventLog
import StreamProtocol

/// What a publish stored: one entry per event asked for, and the timestamp of the commit.
struct PublishOutcome: Sendable, Equatable {
    var entries: [ServerMessage.PublishedEntry]
    /// Each entry's timestamp: the commit's, or for a remembered duplicate its original's.
    var timestamps: [Int64]
    /// The commit's timestamp (for a batch of duplicates only, the last original's).
    var timestamp: Int64
}

extension StreamHub {
    /// One event of a publish.
    struct Submission: Sendable {
        var messageID: String?
        var payload: [UInt8]
    }

    /// Appends `submissions` to `stream` (creating it with the default policy if it is missing) and
    /// returns once they are committed.
    ///
    /// An id the stream keeps within its de-duplication window (its policy's, or the last
    /// `limits.deduplicationWindow` events) is not stored again: its entry carries the original
    /// sequence and `duplicate`. An id repeated inside the batch is stored once. Duplicates are resolved before `expectedLastSequence` is checked, so a retried
    /// conditional publish that was stored the first time gets its original sequence rather than
    /// `wrong_last_sequence`.
    ///
    /// Where this daemon is the log's one writer, the stream's window answers, read from the log once
    /// per run (and the log too, for ids the window forgot for lack of room); where the log is shared (`checksMessageIDs`), the log checks every id under the
    /// stream's lock in the database, and this stores what it did not refuse.
    func publish(to stream: String, expectedLastSequence: UInt64?, _ submissions: [Submission]) throws -> PublishOutcome {
        try StreamName.validate(stream)
        guard !submissions.isEmpty else {
            throw ServerError(.invalidArgument, "PUBLISH_BATCH to \"\(stream)\" has no events; send at least one.")
        }
        try checkPayloads(submissions.lazy.map(\.payload), to: stream)
        try checkMessageIDs(of: submissions, to: stream)
        defer { trimDeduplicationWindows() }
        let entry = entry(for: stream)
        return try entry.window.withLock { window throws -> PublishOutcome in
            entry.committing.wait()
            let windowAnswers = !log.checksMessageIDs
            if windowAnswers, !window.isLoaded, submissions.contains(where: { $0.messageID != nil }) {
                let row = try log.catalogEntry(stream)
                if let row { entry.committed(through: row.lastSequence) }
                // However long the stream's window, a load reads no more ids than the window's bytes
                // could hold; when there are that many, some do not fit, so the window says it forgot
                // for lack of room and the log is asked about older ones (`mayHaveForgotten`).
                let most = RememberedMessageIDs.mostIDs(in: limits.deduplicationWindowBytes)
                let stored = try log.rememberedMessageIDs(of: stream, newest: most)
                window.load(stored, within: log.options.deduplication(of: row?.policy ?? StreamPolicy()))
            }
            window.advance(to: entry.lastSequence.load(ordering: .relaxed))
            let now = log.options.clock()
            var outcomes = [(entry: ServerMessage.PublishedEntry, timestamp: Int64)?](repeating: nil, count: submissions.count)
            var fresh: [Int] = []
            var firstInBatch: [String: Int] = [:]
            var repeats: [(slot: Int, first: Int)] = []
            for (slot, submission) in submissions.enumerated() {
                if let id = submission.messageID {
                    if windowAnswers, let original = window.original(of: id, at: now) {
                        outcomes[slot] = (.init(sequence: original.sequence, duplicate: true), original.timestamp)
                        continue
                    }
                    if let first = firstInBatch[id] {
                        repeats.append((slot, first))
                        continue
                    }
                    firstInBatch[id] = slot
                }
                fresh.append(slot)
            }
            if windowAnswers, window.mayHaveForgotten, !firstInBatch.isEmpty {
                // The window forgot ids for lack of room that the log still keeps.
                for original in try log.rememberedMessageIDs(of: stream, among: Array(firstInBatch.keys)) {
                    guard let slot = firstInBatch[original.id] else { continue }
                    outcomes[slot] = (.init(sequence: original.sequence, duplicate: true), original.timestamp)
                }
                fresh.removeAll { outcomes[$0] != nil }
            }
            var committed: Int64?
            while !fresh.isEmpty {
                let receipt: AppendReceipt
                let ids = fresh.map { submissions[$0].messageID }
                do {
                    receipt = try appendCreatingStream(
                        .value, fresh.map { submissions[$0].payload }, messageIDs: ids.contains { $0 != nil } ? ids : [], to: stream,
                        expecting: expectedLastSequence, otherwise: "nothing was stored")
                } catch let error as EventLogError where error.code == .duplicateMessageID && !error.duplicates.isEmpty {
                    // Stored before, perhaps through another daemon: answered with the originals, and
                    // the rest tried again.
                    for (index, original) in error.duplicates {
                        outcomes[fresh[index]] = (.init(sequence: original.sequence, duplicate: true), original.timestamp)
                    }
                    fresh = fresh.indices.filter { error.duplicates[$0] == nil }.map { fresh[$0] }
                    continue
                }
                entry.committed(through: receipt.lastSequence)
                for (index, slot) in fresh.enumerated() {
                    let sequence = receipt.firstSequence + UInt64(index)
                    outcomes[slot] = (.init(sequence: sequence), receipt.timestamp)
                    if windowAnswers, let id = submissions[slot].messageID {
                        window.remember(id, sequence: sequence, timestamp: receipt.timestamp)
                    }
                }
                committed = receipt.timestamp
                activity.recordPublished(fresh.count, to: stream)
                break
            }
            for (slot, first) in repeats {
                outcomes[slot] = (.init(sequence: outcomes[first]!.entry.sequence, duplicate: true), outcomes[first]!.timestamp)
            }
            let answered = outcomes.map { $0! }
            return PublishOutcome(
                entries: answered.map(\.entry), timestamps: answered.map(\.timestamp), timestamp: committed ?? answered.last!.timestamp)
        }
    }

    /// Stores the completion of `stream` (or, with `failure`, its failure) as its last event, creating
    /// the stream if it is missing; like a conditional publish, it holds the stream's lock and waits
    /// for appends still committing, so `expectedLastSequence` is checked against all of them.
    func endStream(_ stream: String, failure: String?, expectedLastSequence: UInt64?) throws -> AppendReceipt {
        try StreamName.validate(stream)
        let entry = entry(for: stream)
        return try entry.window.withLock { _ in
            entry.committing.wait()
            let (kind, payload) = failure.map { (LogEvent.Kind.failed, Array($0.utf8)) } ?? (.completed, [])
            let receipt = try appendCreatingStream(
                kind, [payload], messageIDs: [], to: stream, expecting: expectedLastSequence, otherwise: "the stream was not ended")
            entry.committed(through: receipt.lastSequence)
            return receipt
        }
    }

    /// Appends `payloads` to `stream` (creating it with the default policy if it is missing) without
    /// waiting for the commit: `completion` runs once it is durable, on the committing thread, or, with
    /// `normal` durability and the log idle, on this one before returning (see
    /// `EventLog.append(contentsOf:to:commitOnCallingThreadIfIdle:completion:)`).
    ///
    /// For publishes with no message id and no expected last sequence: they need no window, so a
    /// connection can pipeline them and the log commits whatever has arrived as one group.
    ///
    /// A stream another daemon sharing the database deleted meanwhile is made again, once.
    func publishUnconditionally(
        to stream: String, _ payloads: [[UInt8]], afterDeletion: Bool = false,
        completion: @escaping @Sendable (Result<AppendReceipt, any Error>) -> Void
    ) {
        do {
            try StreamName.validate(stream)
            try checkPayloads(payloads, to: stream)
        } catch {
            completion(.failure(error))
            return
        }
        let entry = entry(for: stream)
        let entered = entry.window.withLock { _ -> Bool in
            // Under the lock, so a delete that ran meanwhile is seen and the stream made again.
            if !entry.exists.load(ordering: .acquiring) {
                do {
                    try makeStream(stream)
                } catch {
                    completion(.failure(error))
                    return false
                }
                entry.exists.store(true, ordering: .releasing)
            }
            // Counted in under the lock, appended outside it: publishers of one stream on several
            // connections do not queue for the lock behind each other's commits, and a conditional
            // publish or a delete, which waits for the appends counted in, still sees this one.
            entry.committing.enter()
            return true
        }
        guard entered else { return }
        // With `full` durability a commit waits for the disk: leave that to the writer thread, so
        // an event loop handing over publishes never blocks on fsync.
        let commitHere = log.options.durability == .normal
        log.append(contentsOf: payloads, to: stream, commitOnCallingThreadIfIdle: commitHere) { result in
            // Before the count goes down: a de-duplicated publish waiting for it then sees the sequence.
            if case let .success(receipt) = result { entry.committed(through: receipt.lastSequence) }
            entry.committing.leave()
            switch result {
            case .success:
                self.activity.recordPublished(payloads.count, to: stream)
            case .failure(let error) where error.code == .streamNotFound && !afterDeletion:
                // Deleted by another daemon sharing the database. Made again off this thread, which
                // may be the log's committer.
                entry.exists.store(false, ordering: .releasing)
                DispatchQueue.global().async {
                    self.publishUnconditionally(to: stream, payloads, afterDeletion: true, completion: completion)
                }
                return
            case .failure:
                break
            }
            completion(result.mapError { $0 })
        }
    }

    /// Throws `invalid_argument` if a message id is longer than the limit, before anything is stored.
    private func checkMessageIDs(of submissions: [Submission], to stream: String) throws {
        let maximum = limits.maximumMessageIDBytes
        for (index, submission) in submissions.enumerated() {
            guard let length = submission.messageID?.utf8.count, length > maximum else { continue }
            let which = submissions.count == 1 ? "the message id" : "the message id of event \(index + 1) of \(submissions.count)"
            throw ServerError(
                .invalidArgument,
                "\(which) published to \"\(stream)\" is \(length) bytes long, but message ids may be at most \(maximum) bytes; nothing was stored. Use a shorter id, such as a UUID or a hash of the event.")
        }
    }

    /// Appends `payloads`, all of `kind`, with their `messageIDs` (one per payload, or none), creating
    /// `stream` with the default policy if it is missing, if it ends at `expected` (nil expects
    /// anything; a missing stream ends at 0). The log checks the expectation when it numbers the
    /// append, so it holds against every other publish, through this daemon or another sharing the
    /// database; otherwise this throws `wrong_last_sequence`, saying `outcome`.
    private func appendCreatingStream(
        _ kind: LogEvent.Kind, _ payloads: [[UInt8]], messageIDs: [String?], to stream: String, expecting expected: UInt64?,
        otherwise outcome: String
    ) throws -> AppendReceipt {
        func append() throws -> AppendReceipt {
            do {
                return try log.append(kind, payloads, messageIDs: messageIDs, to: stream, expectingLastSequence: expected)
            } catch let error as EventLogError where error.code == .wrongLastSequence {
                throw wrongLastSequence(of: stream, expected: expected ?? 0, actual: error.sequences?.upperBound ?? 0, outcome)
            }
        }
        do {
            return try append()
        } catch let error as EventLogError where error.code == .streamNotFound {
            if let expected, expected != 0 { throw wrongLastSequence(of: stream, expected: expected, actual: 0, outcome) }
            try makeStream(stream)
            return try append()
        }
    }

    private func wrongLastSequence(of stream: String, expected: UInt64, actual: UInt64, _ outcome: String) -> ServerError {
        ServerError(
            .wrongLastSequence,
            "expected the last sequence of \"\(stream)\" to be \(expected), but it is \(actual); \(outcome). Read the stream and retry with \(actual).")
    }

    /// Creates `stream` with the default policy if it is missing (within the daemon's stream limit).
    /// On failure the hub keeps no lock or window for it, so refused names cost nothing.
    private func makeStream(_ stream: String) throws {
        do {
            try ensureStreamWithinLimit(stream)
        } catch {
            forget(stream)
            throw error
        }
    }
}
