import CSQLite
import StreamdTestSupport

/// Damage done to a stopped daemon's database file, as a bad disk would do it.
enum DamagedDatabase {
    /// Flips a byte in the middle of the first stored block, as a bad disk would.
    static func corruptFirstBlock(of path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw TestFailure("cannot open \(path)") }
        defer { sqlite3_close(handle) }
        let sql = """
            UPDATE blocks SET payload = CAST(substr(payload, 1, 10)
                || CASE WHEN substr(payload, 11, 1) = x'00' THEN x'01' ELSE x'00' END || substr(payload, 12) AS BLOB)
            WHERE rowid = (SELECT min(rowid) FROM blocks)
            """
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, sqlite3_changes(handle) == 1 else {
            throw TestFailure("cannot corrupt the block: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }
}
