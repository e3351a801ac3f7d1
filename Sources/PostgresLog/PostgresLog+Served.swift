import EventLog
import Foundation
import StreamModel

extension PostgresLog: ServedLog {
    package var location: String { address.description }

    /// The bytes of the streamd tables, their indexes and their out-of-line storage, or 0 when the
    /// server cannot say.
    package func databaseBytes() -> Int64 {
        let sql = """
            SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::int8 FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'streamd' AND c.relkind = 'r'
            """
        return (try? pool.withConnection { connection in try connection.execute(sql).int64(0, 0) }) ?? 0
    }

    package func ensuredStream(_ name: String, policy: StreamPolicy) throws -> StreamState {
        try ensured(name, policy: policy).state
    }

    /// Appends `payloads` and calls `completion` on the writer thread once PostgreSQL committed them;
    /// there is no committing on the calling thread here, so `commitOnCallingThreadIfIdle` changes nothing.
    package func append(
        contentsOf payloads: [[UInt8]], to stream: String, commitOnCallingThreadIfIdle: Bool,
        completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void
    ) {
        append(contentsOf: payloads, to: stream, completion: completion)
    }

    /// Handlers are called on the tail's thread (see `observeAppends`), which is no hop from a commit
    /// another process made.
    package func observeAppendsImmediately(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) throws -> AppendObservation {
        try observeAppends(to: stream, handler)
    }

    /// Walks every stored block in one snapshot and checks it as the SQLite log does (header columns,
    /// CRC-32, decompression, framing, sequence continuity, agreement with the catalog). Problems are
    /// reported, never thrown; only failing to read at all throws.
    public func verify() throws -> VerifyReport {
        try pool.withConnection(PostgresLog.verify)
    }

    /// Lets PostgreSQL reuse the space that truncation, retention and deletion freed (`VACUUM` of the
    /// streamd tables, which appends and reads go on beside). It never rewrites the tables, which would
    /// hold every append of every daemon until it ended; PostgreSQL's autovacuum does the same work on
    /// its own schedule.
    public func compact() throws -> CompactionReport {
        let started = ContinuousClock.now
        let before = databaseBytes()
        try pool.withConnection { connection in
            try connection.execute("VACUUM (ANALYZE) streamd.blocks")
            try connection.execute("VACUUM (ANALYZE) streamd.streams")
        }
        let elapsed = ContinuousClock.now - started
        return CompactionReport(bytesBefore: before, bytesAfter: databaseBytes(), rewrote: false, milliseconds: Int64(elapsed / .milliseconds(1)))
    }
}

extension PostgresLog {
    /// Verifies the log in the database `address` names without opening it (no writer, no tail, no
    /// tables made): for `streamctl verify --db postgres://…`, while daemons serve it or not.
    ///
    /// - Throws: `streamNotFound`-free: a database without the streamd tables throws `postgres` with a
    ///   sentence saying so; an unreachable server throws `unavailable`.
    public static func verify(_ address: PostgresAddress) throws -> VerifyReport {
        try verify(on: PostgresConnection(address))
    }

    static func verify(on connection: PostgresConnection) throws -> VerifyReport {
        let decoder = try BlockDecoder()
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { if connection.isOpen { _ = try? connection.execute("COMMIT") } }
        guard try connection.execute("SELECT to_regclass('streamd.version') IS NOT NULL").bool(0, 0) else {
            throw EventLogError(.postgres, "the database at \(connection.address) holds no streamd log (no streamd.version table); check the URL's database name.")
        }
        return try VerifyReport.checking(PostgresCatalog.loadAll(on: connection), decoder: decoder) { state, from, limit, body in
            try PostgresBlocks.blocks(of: state.id, atOrAfter: from, limit: limit, on: connection, body)
        }
    }
}
