import CLibPQ
import EventLog

/// The rows of one statement, in PostgreSQL's binary format, read by row and column index.
///
/// Reading a column as a type it is not (`int64` of a `text` column) traps: the statements are the
/// module's own, so a mismatch is a bug here, never bad input.
/// Thread-safety: not Sendable; owned by the thread that ran the statement. Frees its rows at deinit.
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }

    deinit { PQclear(result) }

    var count: Int { Int(PQntuples(result)) }

    /// The number of rows the statement changed (UPDATE, DELETE, INSERT).
    var changed: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// An `int8`, `int4` or `int2` column as Int64.
    func int64(_ row: Int, _ column: Int) -> Int64 {
        let raw = bytes(row, column)
        var value: Int64 = 0
        for byte in raw { value = value << 8 | Int64(byte) }
        // Narrower integers are sign-extended from their own width.
        let unused = 64 - 8 * raw.count
        return unused > 0 ? (value << unused) >> unused : value
    }

    /// An integer column as Int64, or nil when NULL.
    func optionalInt64(_ row: Int, _ column: Int) -> Int64? { isNull(row, column) ? nil : int64(row, column) }

    /// A `text` column.
    func text(_ row: Int, _ column: Int) -> String { String(decoding: bytes(row, column), as: UTF8.self) }

    /// A `bool` column.
    func bool(_ row: Int, _ column: Int) -> Bool { bytes(row, column).first == 1 }

    /// A column's bytes (a `bytea` as stored), valid while this result lives.
    func bytes(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return UnsafeRawBufferPointer(start: PQgetvalue(result, Int32(row), Int32(column)), count: length)
    }
}

@available(*, unavailable)
extension PostgresResult: Sendable {}
