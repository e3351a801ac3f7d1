import CSQLite

/// Damage done to a log's database file on purpose, as a disk might, for tests of what survives it.
public enum DamagedDatabase {
    /// Flips one byte inside the stored payload of the stream's first block, so its CRC no longer
    /// matches. The file must not be open for writing elsewhere.
    public static func corruptFirstBlock(of path: String) throws {
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
