import Testing
@testable import EventLog

@Suite struct BlockStoreTests {
    /// SQLite's plan for `sql`, one line per step.
    private func plan(_ connection: SQLiteConnection, _ sql: String) throws -> String {
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
        defer { statement.reset() }
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(3)) }
        return lines.joined(separator: "\n")
    }

    @Test func readsBySequenceAndByTimeAreIndexSeeksNotScans() throws {
        let dir = TemporaryDirectory()
        _ = try EventLog(path: dir.file())
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        let bySequence = try plan(connection,
            "SELECT \(BlockStore.headerColumns), payload FROM blocks WHERE stream_id = ? AND last_seq >= ? ORDER BY last_seq LIMIT ?")
        #expect(bySequence.contains("USING INDEX blocks_by_sequence (stream_id=? AND last_seq>?)"), "\(bySequence)")
        #expect(!bySequence.contains("TEMP B-TREE"))
        let byTime = try plan(connection,
            "SELECT \(BlockStore.headerColumns), payload FROM blocks WHERE stream_id = ? AND last_ts >= ? ORDER BY last_ts, last_seq LIMIT 1")
        #expect(byTime.contains("USING INDEX blocks_by_time (stream_id=? AND last_ts>?)"), "\(byTime)")
        #expect(!byTime.contains("TEMP B-TREE"))
    }

    @Test func sqliteErrorsCarryTheCodeTheMessageAndTheSQL() throws {
        let dir = TemporaryDirectory()
        let connection = try SQLiteConnection(path: dir.file(), readOnly: false, create: true, busyTimeoutMilliseconds: 100)
        let error = expectLogError(.sqlite) { _ = try connection.statement("SELECT nope FROM nowhere") }
        #expect(error?.sqliteCode == 1)
        #expect(error?.sql == "SELECT nope FROM nowhere")
        #expect(error?.message.contains("no such table: nowhere") == true)
        #expect(error?.description.contains(dir.file()) == true)
    }

    @Test func preparedStatementsAreReusedAndReset() throws {
        let dir = TemporaryDirectory()
        let connection = try SQLiteConnection(path: dir.file(), readOnly: false, create: true, busyTimeoutMilliseconds: 100)
        try connection.execute("CREATE TABLE t(x INTEGER)")
        for value in 1...3 {
            let insert = try connection.statement("INSERT INTO t VALUES (?)")
            insert.bind(1, Int64(value))
            try insert.run()
        }
        let first = try connection.statement("SELECT sum(x) FROM t")
        #expect(try first.step() && first.int64(0) == 6)
        let again = try connection.statement("SELECT sum(x) FROM t")
        #expect(first === again)
        #expect(try again.step() && again.int64(0) == 6)
    }
}
