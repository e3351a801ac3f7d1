import CSQLite
import Foundation
import CSQLiteWriteMerge

/// One SQLite connection: owns the handle, caches prepared statements, and turns every failure into an
/// `EventLogError` carrying the extended result code, SQLite's message and the SQL.
///
/// Thread-safety: `@unchecked Sendable` because the log moves connections between threads but never
/// shares one: the writer connection is used only by the writer thread, and each reader connection is
/// handed out by `ReaderPool` to one caller at a time and taken back when that caller is done. The
/// handle is opened with SQLITE_OPEN_NOMUTEX for that reason.
final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens (and with `create`, creates) the database at `path`; with `exclusiveToProcess`, through
    /// SQLite's `unix-excl` VFS (see `EventLogOptions.exclusiveToProcess`), which every connection of
    /// the process to that file must then use too, else through `unix`. Either is reached through its
    /// pass-through wrapper from CSQLiteWriteMerge, which writes each WAL frame with one system call.
    /// Without `followsSymlinks`, a path with a symlink in it is refused (`SQLITE_OPEN_NOFOLLOW`); with
    /// `immutable`, the file is read without locks or side files (see `EventLogOptions.immutable`).
    ///
    /// - Throws: `EventLogError` with code `io` when the wrappers cannot be registered, else the open's
    ///   failure mapped by `error(_:message:path:sql:)`.
    init(
        path: String, readOnly: Bool, create: Bool, busyTimeoutMilliseconds: Int32, exclusiveToProcess: Bool = false,
        followsSymlinks: Bool = true, immutable: Bool = false
    ) throws(EventLogError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if !followsSymlinks { flags |= SQLITE_OPEN_NOFOLLOW }
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))) ?? path
            name = "file:\(encoded)?immutable=1"
        }
        let registration = streamd_write_merge_register()
        guard registration == SQLITE_OK else {
            throw EventLogError(
                .io,
                "SQLite could not register the VFS wrappers \(STREAMD_WRITE_MERGE_UNIX_VFS) and \(STREAMD_WRITE_MERGE_UNIX_EXCL_VFS) over its unix VFSes (\(String(cString: sqlite3_errstr(registration)))); the log needs an SQLite built with its unix VFSes.",
                path: path, sqliteCode: registration)
        }
        let vfs = exclusiveToProcess ? STREAMD_WRITE_MERGE_UNIX_EXCL_VFS : STREAMD_WRITE_MERGE_UNIX_VFS
        var pointer: OpaquePointer?
        let status = sqlite3_open_v2(name, &pointer, flags, vfs)
        guard let pointer else {
            throw EventLogError(.io, "SQLite could not allocate a connection for \(path).", path: path)
        }
        guard status == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(pointer))
            let code = sqlite3_extended_errcode(pointer)
            sqlite3_close_v2(pointer)
            throw SQLiteConnection.error(code, message: message, path: path, sql: nil)
        }
        handle = pointer
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// True when SQLite opened the file read-only (it does so silently when the file is not writable).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Runs one or more statements that return no rows worth reading.
    func execute(_ sql: String) throws(EventLogError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteConnection.error(sqlite3_extended_errcode(handle), message: text, path: path, sql: sql)
        }
    }

    /// The virtual-machine steps the cached statements ran since this connection's last call
    /// (`SQLITE_STMTSTATUS_VM_STEP`, read and reset): how much work a piece of code asked of SQLite,
    /// independent of the machine's speed. Tests count them to show that an operation's cost does not
    /// grow with the log.
    func takeVirtualMachineSteps() -> Int64 {
        statements.values.reduce(0) { $0 + Int64(sqlite3_stmt_status($1.handle, SQLITE_STMTSTATUS_VM_STEP, 1)) }
    }

    /// The cached prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(EventLogError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row of `sql` as an integer (0 when there is no row).
    func integer(_ sql: String) throws(EventLogError) -> Int64 {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The first column of the first row of `sql` as text ("" when there is no row).
    func text(_ sql: String) throws(EventLogError) -> String {
        let statement = try statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : ""
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// True inside an open transaction.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The error for the connection's last failure.
    func lastError(sql: String?) -> EventLogError {
        SQLiteConnection.error(
            sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), path: path, sql: sql)
    }

    /// Maps an SQLite result code to the module's error, with advice for the common cases.
    static func error(_ code: Int32, message: String, path: String, sql: String?) -> EventLogError {
        let primary = code & 0xff
        switch primary {
        case SQLITE_NOTADB:
            return EventLogError(
                .notADatabase,
                "\(path) is not an SQLite database (\(message)); point the log at a new file or at one it created.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_FULL:
            return EventLogError(
                .diskFull,
                "the database is full (\(message)); nothing of the failed write was stored. Free disk space, raise the page limit, or truncate streams, then retry.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_READONLY, SQLITE_PERM:
            return EventLogError(
                .readOnly,
                "the database cannot be written (\(message)); check the file's and directory's permissions.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_CANTOPEN where code == SQLITE_CANTOPEN_SYMLINK_CODE:
            return EventLogError(
                .io, "\(path) is, or is reached through, a symbolic link, which the log was told not to follow (another user may have planted it); remove the link or give the real path.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_CANTOPEN:
            return EventLogError(
                .io, "SQLite cannot open the file (\(message)); check that the directory exists and is accessible.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return EventLogError(
                .busy,
                "the database stayed locked by another connection past the busy timeout (\(message)); retry, or stop the other writer.",
                path: path, sqliteCode: code, sql: sql)
        case SQLITE_CORRUPT:
            return EventLogError(
                .corruptDatabase,
                "SQLite reports the database file as malformed (\(message)); restore it from a backup or run verify to see what is readable.",
                path: path, sqliteCode: code, sql: sql)
        default:
            return EventLogError(.sqlite, "SQLite failed: \(message).", path: path, sqliteCode: code, sql: sql)
        }
    }
}

/// `SQLITE_CANTOPEN_SYMLINK`, the extended code of a path refused by `SQLITE_OPEN_NOFOLLOW`.
private let SQLITE_CANTOPEN_SYMLINK_CODE: Int32 = SQLITE_CANTOPEN | (6 << 8)
