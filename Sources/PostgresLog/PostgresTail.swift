import EventLog
import Foundation
import Synchronization

/// The live tail of a `PostgresLog`: hands every commit to a watched stream to its `observeAppends`
/// handlers, in sequence order, each once, whichever process committed it.
///
/// The table is the truth; a notification only says "look". For each watched stream the tail keeps
/// the last sequence it delivered, and on any sign of news reads the stream's blocks after it:
/// - this process's commits, which the writer hands over with their events (delivered from memory
///   when they follow on directly, so no read is needed);
/// - a `NOTIFY streamd` from another process's commit, heard on a connection of its own that
///   `LISTEN`s (this process's writer rings too, for the others, and is not heard: its commits come
///   from memory, and may ring before the writer has handed them over);
/// - a look at the watched streams' rows every `pollInterval`, and at once after the listening
///   connection was lost and made again, for notifications that never came.
/// It runs on a thread of its own, woken through a pipe or by the listening socket.
///
/// A writer rings only while another process listens (`ringsForOthers`): a daemon alone on its
/// database spares each commit the notification and the two wake-ups it costs (the listening server
/// process, then this thread). Every listening connection holds a shared advisory lock, so the tail
/// counts the others in `pg_locks` at each look while it rings, and stops when none is left; a
/// connection that starts listening rings once, and any notification from another process makes the
/// tail ring again at once. A commit made in between (by a process that had not heard the newcomer
/// yet) is found by the newcomer's next look, or with the next notification, which says "look" for
/// everything after what it delivered.
/// Thread-safety: Sendable; its state sits behind a Mutex and its thread alone delivers.
final class PostgresTail: Sendable {
    /// The notification channel every commit rings.
    static let channel = "streamd"
    /// How often the tail looks at the watched streams' rows without being told.
    static let pollInterval: Duration = .milliseconds(500)
    /// The advisory lock (`'STRL'`) each listening connection holds shared, to be counted.
    static let listenerKey: Int64 = 0x5354_524C

    private struct Watch {
        var streamID: Int64
        var created: Int64
        var delivered: UInt64
        /// A sign of news: read the stream after `delivered`.
        var stale = false
    }

    /// A commit of this process, with its events, as the writer hands it over.
    struct LocalCommit: Sendable {
        var receipt: AppendReceipt
        var kind: LogEvent.Kind
        var payloads: [[UInt8]]
        /// The stream's row as the commit left it: which life of the stream it went to.
        var stream: StreamState
    }

    private struct State {
        var watched: [String: Watch] = [:]
        var local: [LocalCommit] = []
        var closed = false
        /// The server process of this process's writer connection, whose notifications are its own.
        var writer: Int32?
    }

    private let address: PostgresAddress
    private let observers: AppendObservers
    private let pool: PostgresConnectionPool
    private let state = Mutex(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let done = DispatchSemaphore(value: 0)
    /// Whether another process may listen: true unless this tail, listening, counted none.
    private let othersListen = Atomic<Bool>(true)

    init(address: PostgresAddress, observers: AppendObservers, pool: PostgresConnectionPool) throws(EventLogError) {
        self.address = address
        self.observers = observers
        self.pool = pool
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 && fcntl($0, F_SETFL, O_NONBLOCK) == 0 }) else {
            throw EventLogError(.io, "cannot make the live tail's wake-up pipe: \(String(cString: strerror(errno))).")
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let thread = Thread { [self] in
            nameCurrentThread("pg-tail")
            run()
        }
        thread.start()
    }

    /// Rings the channel, in the committing transaction, with the streams that moved
    /// (`id:last_seq` pairs), or `*` when they would not fit in one notification.
    static func notify(_ streams: [StreamState], on connection: PostgresConnection) throws(EventLogError) {
        guard !streams.isEmpty else { return }
        let (sql, parameters) = notifyStatement(streams)
        try connection.execute(sql, parameters)
    }

    /// Whether this process's commits ring: another process listens, or the tail cannot tell.
    var ringsForOthers: Bool { othersListen.load(ordering: .relaxed) }

    /// The statement `notify(_:on:)` runs.
    static func notifyStatement(_ streams: [StreamState]) -> (sql: String, parameters: [PostgresValue]) {
        var payload = streams.map { "\($0.id):\($0.lastSequence)" }.joined(separator: " ")
        if payload.utf8.count > 7_000 { payload = "*" }
        return ("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// Starts watching `stream` after its current last sequence; `row` is its catalog row now.
    func watch(_ row: StreamState) {
        state.withLock { state in
            if state.watched[row.name] == nil {
                state.watched[row.name] = Watch(streamID: row.id, created: row.created, delivered: row.lastSequence)
            }
        }
    }

    /// This process's commits, with their events, from the writer after they committed.
    func committed(_ commits: [LocalCommit]) {
        guard observers.isObserved else { return }
        let any = state.withLock { state -> Bool in
            let mine = commits.filter { state.watched[$0.receipt.stream] != nil }
            state.local += mine
            return !mine.isEmpty
        }
        if any { wake() }
    }

    /// The writer connected, as server process `pid`.
    func writerConnected(_ pid: Int32) {
        state.withLock { $0.writer = pid }
    }

    /// The writer lost its connection while committing to `streams`, which may or may not have
    /// moved: read them.
    func recheck(_ streams: [String]) {
        state.withLock { state in
            for name in streams { state.watched[name]?.stale = true }
        }
        wake()
    }

    func close() {
        state.withLock { $0.closed = true }
        wake()
        done.wait()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        defer { done.signal() }
        var listener: PostgresConnection?
        var nextPoll = ContinuousClock.now
        var nextConnect = ContinuousClock.now
        while true {
            if listener?.isOpen != true {
                // Not listening, the tail cannot count the others: this process rings meanwhile.
                othersListen.store(true, ordering: .relaxed)
                if ContinuousClock.now >= nextConnect {
                    listener = try? listen()
                    nextConnect = ContinuousClock.now + .seconds(1)
                    // Whatever was rung while nobody listened is found by looking at once.
                    nextPoll = ContinuousClock.now
                }
            }
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var until = nextPoll
            if let listener, listener.isOpen {
                descriptors.append(pollfd(fd: listener.socket, events: Int16(POLLIN), revents: 0))
            } else {
                until = min(until, nextConnect)
            }
            let wait = max(Duration.zero, until - ContinuousClock.now)
            _ = poll(&descriptors, nfds_t(descriptors.count), Int32(min(1_000, wait / .milliseconds(1))))
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &drain, drain.count) > 0 {}
            if state.withLock({ $0.closed }) { return }
            if let listener, let heard = try? listener.notifications() {
                let writer = state.withLock { $0.writer }
                for (_, payload, sender) in heard where sender != writer && sender != listener.backendPID {
                    othersListen.store(true, ordering: .relaxed)
                    markStale(payload)
                }
            }
            if ContinuousClock.now >= nextPoll {
                markStaleFromRows()
                countOthers(on: listener)
                nextPoll = ContinuousClock.now + Self.pollInterval
            }
            deliver()
        }
    }

    /// Listens on a new connection, holds the listeners' lock there, and rings once for the processes
    /// that stopped ringing while they were alone.
    private func listen() throws(EventLogError) -> PostgresConnection {
        let connection = try PostgresConnection(address, name: "streamd listener")
        try connection.execute("LISTEN \(Self.channel)")
        try connection.execute("SELECT pg_advisory_lock_shared($1)", [.int64(Self.listenerKey)])
        try connection.execute("SELECT pg_notify($1, '')", [.text(Self.channel)])
        return connection
    }

    /// Counts the other listening connections to this database (advisory locks, like notifications,
    /// are per database), so the writer stops ringing once none is left; a tail not listening cannot
    /// tell, and rings.
    private func countOthers(on listener: PostgresConnection?) {
        guard othersListen.load(ordering: .relaxed) else { return }
        guard let listener, listener.isOpen else { return }
        let others = try? listener.execute(
            """
            SELECT count(*) FROM pg_locks WHERE \(PostgresAdvisoryLock.condition) AND granted AND pid <> pg_backend_pid()
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """,
            PostgresAdvisoryLock.parameters(Self.listenerKey))
        if let others, others.int64(0, 0) == 0 { othersListen.store(false, ordering: .relaxed) }
    }

    /// Marks the watched streams a notification names (all of them for `*`).
    private func markStale(_ payload: String) {
        state.withLock { state in
            if payload == "*" {
                for name in state.watched.keys { state.watched[name]?.stale = true }
                return
            }
            var moved: [Int64: UInt64] = [:]
            for pair in payload.split(separator: " ") {
                let parts = pair.split(separator: ":")
                if parts.count == 2, let id = Int64(parts[0]), let last = UInt64(parts[1]) { moved[id] = last }
            }
            for (name, watch) in state.watched {
                if let last = moved[watch.streamID], last > watch.delivered { state.watched[name]?.stale = true }
            }
        }
    }

    /// Drops the watches nobody observes any more, and marks those whose row moved past what was
    /// delivered, or that were deleted and made anew.
    private func markStaleFromRows() {
        let names = state.withLock { state -> [String] in
            for name in state.watched.keys where !observers.isObserved(name) { state.watched[name] = nil }
            return Array(state.watched.keys)
        }
        guard !names.isEmpty,
            let rows = try? pool.withConnection({ connection in try PostgresCatalog.load(names, on: connection, locking: false) })
        else { return }
        state.withLock { state in
            for (name, row) in rows {
                guard let watch = state.watched[name] else { continue }
                // PostgreSQL never gives an id twice: another id is another life of the name.
                if row.id != watch.streamID {
                    state.watched[name] = Watch(streamID: row.id, created: row.created, delivered: 0, stale: true)
                } else if row.lastSequence > watch.delivered {
                    state.watched[name]?.stale = true
                }
            }
        }
    }

    /// Delivers this process's commits and reads the stale streams, in sequence order per stream.
    private func deliver() {
        let (local, stale) = state.withLock { state in
            defer { state.local.removeAll() }
            return (state.local, state.watched.filter(\.value.stale).keys)
        }
        for commit in local {
            let name = commit.receipt.stream
            let next = state.withLock { $0.watched[name] }
            guard let watch = next, watch.streamID == commit.stream.id else { continue }
            if commit.receipt.firstSequence == watch.delivered + 1 {
                observers.deliver(commit.receipt, kind: commit.kind, payloads: commit.payloads, streamCreated: commit.stream.created)
                state.withLock { $0.watched[name]?.delivered = commit.receipt.lastSequence }
            } else if commit.receipt.lastSequence > watch.delivered {
                readAndDeliver(name)
            }
        }
        for name in stale { readAndDeliver(name) }
    }

    /// Reads `name`'s events after the last one delivered and delivers them, one commit per block.
    private func readAndDeliver(_ name: String) {
        guard let watch = state.withLock({ $0.watched[name] }) else { return }
        var delivered = watch.delivered
        let decoder = try? BlockDecoder()
        guard let decoder else { return }
        // Each block is delivered as soon as it is decoded, and `delivered` moves with what was
        // delivered: a block that fails its checks stops the read there, to be tried again later.
        _ = try? pool.withConnection { connection in
            while true {
                var blocks = 0
                let rows = try PostgresBlocks.blocks(of: watch.streamID, atOrAfter: delivered + 1, limit: 32, on: connection) { header, stored, _, _ in
                    guard let header else { return false }
                    var events: [LogEvent] = []
                    _ = try decoder.decode(header, stored: stored, from: delivered + 1) { event in
                        events.append(event.copy())
                        return true
                    }
                    if let first = events.first, let last = events.last {
                        observers.deliver(CommittedAppend(
                            stream: name, firstSequence: first.sequence, lastSequence: last.sequence, timestamp: last.timestamp,
                            events: events, streamCreated: watch.created))
                        delivered = last.sequence
                    }
                    blocks += 1
                    return true
                }
                if rows < 32 || blocks < rows { break }
            }
        }
        state.withLock { state in
            guard var current = state.watched[name], current.streamID == watch.streamID else { return }
            current.delivered = max(current.delivered, delivered)
            current.stale = false
            state.watched[name] = current
        }
    }
}
