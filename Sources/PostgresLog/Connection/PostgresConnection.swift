import CLibPQ
import EventLog
import Glibc

/// One connection to a PostgreSQL server through libpq, which does the URL, the host list, the
/// password (URL, `PGPASSWORD`, `~/.pgpass` or `passfile=`) and TLS (`sslmode`, by default used where
/// the server offers it).
///
/// Statements go with binary parameters and come back with binary results (`PostgresResult`), so
/// integers and `bytea` cross without text conversion. Each statement is prepared on the connection
/// the first time it runs (by its text and parameter types, up to `preparedLimit` of them) and only
/// executed after that: the server parses and plans it once per connection, not once per run. A
/// failure throws `EventLogError`: `.unavailable` when the connection is gone (the server stopped, a
/// failover), `.postgres` with the SQLSTATE otherwise, and the message is a sentence naming what failed.
/// Thread-safety: not Sendable; one thread uses a connection at a time (its owner).
final class PostgresConnection {
    private let connection: OpaquePointer
    /// The server as the URL names it, without the password, for messages.
    let address: PostgresAddress
    /// The warnings the server sent during the last `execute` or `pipeline`, each its message and
    /// detail: say, that a commit's wait for its synchronous standby was cancelled.
    private(set) var warnings: [String] = []
    /// The statements prepared on this connection, by text and parameter types, with their names.
    private var prepared: [Statement: String] = [:]
    /// How many statements a connection prepares; statements past it run unprepared. The log's own
    /// are a few dozen fixed texts.
    static let preparedLimit = 256

    private struct Statement: Hashable {
        let sql: String
        let types: [Oid]
    }

    /// The settings a connection gets unless the URL sets them: give up connecting after 10 s, and
    /// notice a server gone silent (a host lost without closing the connection: the kernel would
    /// wait some 15 minutes) within about 30 s, so the writer fails what it holds and moves on.
    static let defaults = [
        ("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"),
        ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
    ]

    /// Connects to the server `address` names, with `defaults` unless the URL overrides them, as
    /// application `name` unless the URL names one (`pg_stat_activity` shows it).
    init(_ address: PostgresAddress, name: String = "streamd") throws(EventLogError) {
        self.address = address
        // The URL comes last: libpq lets later settings override earlier ones.
        let keywords = Self.defaults.map(\.0) + ["fallback_application_name", "dbname"]
        let values = Self.defaults.map(\.1) + [name, address.url]
        let made = Self.withCStrings(keywords) { keys in
            Self.withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let made else { throw EventLogError(.unavailable, "cannot connect to PostgreSQL at \(address): out of memory.") }
        guard PQstatus(made) == CONNECTION_OK else {
            let reason = Self.trimmed(PQerrorMessage(made))
            PQfinish(made)
            throw EventLogError(
                .unavailable,
                "cannot connect to PostgreSQL at \(address): \(reason); check that the server runs and that the URL's host, port, user, password and database are right.")
        }
        connection = made
        // Server notices (say, DROP ... IF EXISTS finding nothing) are not for the daemon's output;
        // warnings are kept for the caller.
        PQsetNoticeReceiver(
            made,
            { context, notice in
                guard let context, let notice else { return }
                Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue().received(notice)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func received(_ notice: OpaquePointer) {
        func field(_ code: UInt8) -> String? { PQresultErrorField(notice, Int32(code)).map { String(cString: $0) } }
        guard field(UInt8(ascii: "V")) == "WARNING", let message = field(UInt8(ascii: "M")) else { return }
        warnings.append([message, field(UInt8(ascii: "D"))].compactMap { $0 }.joined(separator: " "))
    }

    deinit { PQfinish(connection) }

    /// Whether the connection is still usable (libpq noticed no break).
    var isOpen: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Whether an idle connection is still usable, after reading whatever the server sent meanwhile
    /// without waiting: a server that ended the session (a restart, a failover, an administrator)
    /// has said so, or closed the socket, by now.
    var isUsableAfterIdling: Bool {
        // The server's last message, then the end of the connection: read until neither is waiting.
        for _ in 0..<4 where isOpen {
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0, PQconsumeInput(connection) == 1 else { break }
        }
        return isOpen
    }

    /// The descriptor of the connection's socket, to wait on for notifications.
    var socket: Int32 { PQsocket(connection) }

    /// Runs `sql` with `parameters` ($1, $2, …) and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(EventLogError) -> PostgresResult {
        warnings = []
        let name = try preparedName(sql, parameters)
        let result = Self.withParameters(parameters) { types, values, lengths, formats in
            if let name {
                PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 1)
            } else {
                PQexecParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 1)
            }
        }
        return try checked(result, sql: sql)
    }

    /// The name `sql` with `parameters`' types is prepared under, preparing it now if it is new, or
    /// nil once `preparedLimit` statements are.
    private func preparedName(_ sql: String, _ parameters: [PostgresValue]) throws(EventLogError) -> String? {
        let statement = Statement(sql: sql, types: parameters.map(\.type))
        if let name = prepared[statement] { return name }
        guard prepared.count < Self.preparedLimit else { return nil }
        let name = newName(after: 0)
        _ = try checked(PQprepare(connection, name, sql, Int32(statement.types.count), statement.types), sql: sql)
        prepared[statement] = name
        return name
    }

    /// Sends `statements` together and reads their results (libpq's pipeline mode): one round trip to
    /// the server for all of them. The first that fails throws, and the server skips the rest. Unless
    /// a transaction is open already or they begin one, they are one transaction, which the server
    /// commits after the last (or rolls back after a failure).
    @discardableResult
    func pipeline(_ statements: [(sql: String, parameters: [PostgresValue])]) throws(EventLogError) -> [PostgresResult] {
        guard PQenterPipelineMode(connection) == 1 else {
            throw EventLogError(.postgres, "cannot send statements together to PostgreSQL at \(address): \(Self.trimmed(PQerrorMessage(connection))).")
        }
        defer { PQexitPipelineMode(connection) }
        warnings = []
        // Statements new to the connection are prepared in the same round trip, just before they run.
        var preparing: [Int: (Statement, String)] = [:]
        for (index, (sql, parameters)) in statements.enumerated() {
            let statement = Statement(sql: sql, types: parameters.map(\.type))
            var name = prepared[statement] ?? preparing.values.first { $0.0 == statement }?.1
            if name == nil, prepared.count + preparing.count < Self.preparedLimit {
                let made = newName(after: preparing.count)
                guard PQsendPrepare(connection, made, sql, Int32(statement.types.count), statement.types) == 1 else {
                    throw broken(sql)
                }
                preparing[index] = (statement, made)
                name = made
            }
            let sent = Self.withParameters(parameters) { types, values, lengths, formats in
                if let name {
                    PQsendQueryPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 1)
                } else {
                    PQsendQueryParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 1)
                }
            }
            guard sent == 1 else {
                throw broken(sql)
            }
        }
        guard PQpipelineSync(connection) == 1 else {
            throw broken()
        }
        // Every result is read up to the sync, even after a failure, so the connection stays usable.
        var results: [PostgresResult] = []
        var failure: EventLogError?
        for (index, (sql, _)) in statements.enumerated() {
            // A statement new to the connection answers its prepare first. It counts as prepared only
            // once the server says so: a prepare skipped after an earlier failure is sent again next time.
            if let (statement, name) = preparing[index] {
                guard let result = nextResult() else {
                    failure = failure ?? unanswered(sql)
                    break
                }
                if succeeded(result, sql: sql, failure: &failure) { prepared[statement] = name }
                PQclear(result)
            }
            guard let result = nextResult() else {
                failure = failure ?? unanswered(sql)
                break
            }
            if succeeded(result, sql: sql, failure: &failure) {
                results.append(PostgresResult(result))
            } else {
                PQclear(result)
            }
        }
        // The sync's own result; before it, the failure of the commit the sync makes when the
        // statements are the pipeline's own transaction (no BEGIN): say, a deferred constraint.
        var ends = 0
        while ends < 2 {
            guard let result = PQgetResult(connection) else {
                ends += 1
                continue
            }
            let status = PQresultStatus(result)
            if status != PGRES_PIPELINE_SYNC { _ = succeeded(result, sql: "COMMIT", failure: &failure) }
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let failure { throw failure }
        return results
    }

    /// A name for a statement prepared now, `pending` others being prepared already.
    private func newName(after pending: Int) -> String { "streamd_\(prepared.count + pending + 1)" }

    /// The next result of a pipeline, the NULL that ends its statement's results read too; nil when
    /// the server did not answer.
    private func nextResult() -> OpaquePointer? {
        guard let result = PQgetResult(connection) else { return nil }
        while let end = PQgetResult(connection) { PQclear(end) }
        return result
    }

    /// Whether `result` succeeded; a failure (not a statement the server skipped after one) becomes
    /// `failure` unless one came first.
    private func succeeded(_ result: OpaquePointer, sql: String, failure: inout EventLogError?) -> Bool {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return true
        case PGRES_PIPELINE_ABORTED: return false
        default:
            failure = failure ?? Self.error(of: result, connection: connection, address: address, sql: sql)
            return false
        }
    }

    private func broken(_ sql: String? = nil) -> EventLogError {
        EventLogError(.unavailable, "the connection to PostgreSQL at \(address) broke: \(Self.trimmed(PQerrorMessage(connection))).", sql: sql)
    }

    private func unanswered(_ sql: String) -> EventLogError {
        EventLogError(.unavailable, "PostgreSQL at \(address) did not answer: \(Self.trimmed(PQerrorMessage(connection))).", sql: sql)
    }

    /// Runs `sql`, which may hold several statements and takes no parameters (schema scripts).
    func executeScript(_ sql: String) throws(EventLogError) {
        _ = try checked(PQexec(connection, sql), sql: String(sql.prefix(200)))
    }

    /// Runs `body` in a transaction, committed when it returns and rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isOpen { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The server process serving this connection.
    var backendPID: Int32 { PQbackendPID(connection) }

    /// The notifications that arrived, after reading what the socket holds (never waits), each with
    /// the server process of the session that sent it.
    func notifications() throws(EventLogError) -> [(channel: String, payload: String, sender: Int32)] {
        guard PQconsumeInput(connection) == 1 else {
            throw broken()
        }
        var found: [(String, String, Int32)] = []
        while let notification = PQnotifies(connection) {
            found.append((String(cString: notification.pointee.relname), String(cString: notification.pointee.extra), notification.pointee.be_pid))
            PQfreemem(notification)
        }
        return found
    }

    private func checked(_ result: OpaquePointer?, sql: String) throws(EventLogError) -> PostgresResult {
        guard let result else {
            throw unanswered(sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresResult(result)
        default:
            let error = Self.error(of: result, connection: connection, address: address, sql: sql)
            PQclear(result)
            throw error
        }
    }

    private static func error(of result: OpaquePointer, connection: OpaquePointer, address: PostgresAddress, sql: String) -> EventLogError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? trimmed(PQresultErrorMessage(result))
        let broken = PQstatus(connection) != CONNECTION_OK || state?.hasPrefix("08") == true || state?.hasPrefix("57P") == true
        if broken {
            var error = EventLogError(.unavailable, "the connection to PostgreSQL at \(address) broke (\(primary)); try again.", sql: sql)
            error.sqlState = state
            return error
        }
        if state == "25006" {
            var error = EventLogError(
                .readOnly, "PostgreSQL at \(address) is a standby and takes no writes (\(primary)); point streamd at the primary, or list every host in the URL.",
                sql: sql)
            error.sqlState = state
            return error
        }
        if state == "53100" {
            var error = EventLogError(
                .diskFull,
                "PostgreSQL at \(address) has no room left on its disk (\(primary)), so nothing of this was stored: free space on the database server's disk (streams deleted or truncated give theirs back once PostgreSQL vacuums them); publishing works again as soon as there is room.",
                sql: sql)
            error.sqlState = state
            return error
        }
        var error = EventLogError(.postgres, "PostgreSQL at \(address) refused a statement: \(primary).", sql: sql)
        error.sqlState = state
        return error
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "no reason given" }
        let text = String(cString: message).trimmingCharacters(in: [" ", "\n"])
        return text.isEmpty ? "no reason given" : text
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func withParameters<T>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        guard !parameters.isEmpty else { return body(nil, nil, nil, nil) }
        let types = parameters.map(\.type)
        let formats = [Int32](repeating: 1, count: parameters.count)
        // One buffer for every value, so the pointers stay valid for the call.
        var storage: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        offsets.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        for value in parameters {
            let start = storage.count
            let present = value.write(to: &storage)
            offsets.append(present ? start : nil)
            lengths.append(Int32(storage.count - start))
        }
        storage.append(0)
        return storage.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = offsets.map { $0.map { base + $0 } }
            return body(types, values, lengths, formats)
        }
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
