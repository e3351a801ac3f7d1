import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct BlockStoreTests {
    /// SQLite's plan for `sql`, one line per step.
    private func plan(_ connection: SQLiteConnection, _ sql: String) throws -> String {
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
        defer { statement.reset() }
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(3)) }
        return lines.joined(separator: "\n")
    }

    @Test func readsByStreamAndSequenceAreKeySeeksNotScans() throws {
        let dir = TemporaryDirectory()
        _ = try EventLog(path: dir.file())
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        let bySequence = try plan(connection, BlockStore.blocksOfStreamSQL)
        #expect(bySequence.contains("USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"), "\(bySequence)")
        #expect(!bySequence.contains("TEMP B-TREE"))
        #expect(
            try connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name != 'message_ids'") == 1,
            "only streams' UNIQUE name")
        // Loading a stream adds its blocks past the row: key ranges too, never a scan of blocks.
        let load = try plan(connection, "SELECT \(StreamCatalog.columns) FROM streams WHERE name = ?")
        #expect(!load.contains("SCAN blocks"), "\(load)")
        #expect(load.components(separatedBy: "SEARCH blocks USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)").count == 4, "\(load)")
    }

    @Test func blockKeysOrderBlocksByStreamThenSequence() {
        #expect(BlockStore.key(1, 0) < BlockStore.key(1, 1))
        #expect(BlockStore.key(1, BlockStore.maximumSequence) < BlockStore.key(2, 0))
        #expect(BlockStore.key(1, .max) == BlockStore.key(1, BlockStore.maximumSequence), "clamped to the stream's range")
        #expect(BlockStore.key(BlockStore.streamIDLimit - 1, BlockStore.maximumSequence) == .max)
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
