/// How `pg_locks` shows a session-level advisory lock taken with one `bigint` key: its high and low
/// halves as `classid` and `objid`, and `objsubid` 1.
///
/// Thread-safety: stateless.
enum PostgresAdvisoryLock {
    /// The `pg_locks` condition for the lock of the key whose `parameters` are bound to `$1` and `$2`.
    static let condition = "locktype = 'advisory' AND classid::int8 = $1 AND objid::int8 = $2 AND objsubid = 1"

    /// The values of `condition`'s `$1` and `$2` for `key`.
    static func parameters(_ key: Int64) -> [PostgresValue] {
        [.int64(key >> 32), .int64(key & 0xFFFF_FFFF)]
    }
}
