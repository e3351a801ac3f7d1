import EventLog
import StreamProtocol

extension StreamHub {
    /// Creates `name` with `policy`; creating an existing stream with the same policy returns it.
    /// With `keepingWindow` (a client older than protocol version 4, whose policies have no
    /// de-duplication window), an existing stream's window is not compared.
    func createStream(_ name: String, policy: StreamPolicy, keepingWindow: Bool = false) throws -> StreamInfo {
        try StreamName.validate(name)
        try policy.validate(stream: name)
        if let existing = try log.streamInfo(name) {
            var wanted = policy
            if keepingWindow { wanted.deduplication = existing.policy.deduplication }
            guard existing.policy == wanted else {
                throw ServerError(
                    .streamExists,
                    "a stream named \"\(name)\" already exists with another policy; use CONFIGURE_STREAM to change it, or delete it first.")
            }
            return served(existing)
        }
        let created: StreamInfo
        do {
            created = try log.describe(ensureStreamWithinLimit(name, policy: policy))
        } catch let error as EventLogError where error.code == .streamExists {
            return try createStream(name, policy: policy, keepingWindow: keepingWindow)
        }
        guard created.policy == policy else {
            // Another connection created it first with another policy.
            throw ServerError(.streamExists, "a stream named \"\(name)\" was just created with another policy.")
        }
        // A publish with an id may have read the window of the stream not made yet (the default).
        reloadWindow(of: name)
        return served(created)
    }

    /// Replaces the policy of `name`, applying its retention at once; with `keepingWindow` (a client
    /// older than protocol version 4, whose policies have no de-duplication window), the stream keeps
    /// its window.
    func configureStream(_ name: String, policy: StreamPolicy, keepingWindow: Bool = false) throws -> StreamInfo {
        try StreamName.validate(name)
        // A missing stream gets no lock of its own: the log refuses it.
        guard try log.catalogEntry(name) != nil else { return served(try log.updatePolicy(of: name, to: policy)) }
        let entry = entry(for: name)
        // Under the stream's lock: no other configuration through this daemon comes between reading the
        // window kept and writing it, and the next publish with an id reads the ids again, within the
        // window as the log then keeps it.
        return served(try entry.window.withLock { window in
            var policy = policy
            if keepingWindow { policy.deduplication = try log.catalogEntry(name)?.policy.deduplication }
            let info = try log.updatePolicy(of: name, to: policy)
            window.forgetAll()
            return info
        })
    }

    /// Has the next publish with an id to `name` read the remembered ids again, within the stream's
    /// window as the log now keeps it.
    private func reloadWindow(of name: String) {
        streams.withLock { $0[name] }?.window.withLock { $0.forgetAll() }
    }

    /// What `name` holds, with the daemon's own figures.
    func streamInfo(_ name: String) throws -> StreamInfo {
        try StreamName.validate(name)
        guard let info = try log.streamInfo(name) else { throw notFound(name) }
        return served(info)
    }

    /// Removes the events `truncation` names, or with `dryRun` only counts them.
    ///
    /// - Returns: how many events were (or would be) removed, and the first retained sequence after
    ///   it (0 when nothing is retained).
    func truncate(_ name: String, _ truncation: Truncation, dryRun: Bool) throws -> (removed: UInt64, firstSequence: UInt64) {
        try StreamName.validate(name)
        guard let before = try log.catalogEntry(name) else { throw notFound(name) }
        let after: StreamInfo
        if dryRun {
            let target = try firstKept(before, truncation)
            return report(first: before.firstSequence, newFirst: target, last: before.lastSequence)
        }
        switch truncation {
        case let .beforeSequence(sequence): after = try log.truncate(name, before: sequence)
        case let .keepLast(count): after = try log.truncate(name, keepingLast: count)
        case let .olderThan(microseconds): after = try log.truncate(name, olderThan: microseconds)
        }
        return report(first: before.firstSequence, newFirst: after.firstSequence, last: after.lastSequence)
    }

    /// Deletes `name` and ends its subscriptions and its consumers' members with reason `stream deleted`.
    func deleteStream(_ name: String) throws {
        try StreamName.validate(name)
        guard try log.catalogEntry(name) != nil else { throw notFound(name) }
        let entry = entry(for: name)
        // The entry stays (a publisher may be waiting for its lock): it only forgets the stream's
        // ids and that the stream exists, so the next publish creates the stream again.
        try entry.window.withLock { window in
            // Appends already handed to the log go in first, so none of them finds the stream gone.
            entry.committing.wait()
            try log.deleteStream(name)
            window.forgetAll()
            entry.lastSequence.store(0, ordering: .relaxed)
            entry.exists.store(false, ordering: .releasing)
        }
        activity.forget(name)
        endSubscriptions(to: name, reason: .streamDeleted, message: "the stream \"\(name)\" was deleted.")
        closeConsumers(of: name)
    }

    private func report(first: UInt64, newFirst: UInt64, last: UInt64) -> (removed: UInt64, firstSequence: UInt64) {
        let removed = newFirst > first ? newFirst - first : 0
        return (removed, newFirst > last ? 0 : newFirst)
    }

    /// The first sequence a truncation would keep, by the same rules as the log's own truncation.
    private func firstKept(_ info: StreamState, _ truncation: Truncation) throws -> UInt64 {
        let first = info.firstSequence, end = info.lastSequence + 1
        switch truncation {
        case let .beforeSequence(sequence):
            return max(first, min(sequence, end))
        case let .keepLast(count):
            return info.lastSequence >= count ? max(first, info.lastSequence - count + 1) : first
        case let .olderThan(microseconds):
            var found = end
            try log.read(info.name, from: .since(microseconds: microseconds)) { event in
                found = event.sequence
                return false
            }
            return max(first, found)
        }
    }

    func notFound(_ name: String) -> ServerError {
        ServerError(.streamNotFound, "no stream named \"\(name)\" exists; publish to it or create it with CREATE_STREAM first.")
    }
}
