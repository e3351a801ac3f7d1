import EventLog
@testable import PostgresLog
import StreamdTestSupport
import Testing

/// A connection prepares each statement once and then only executes it, alone or in a pipeline, and a
/// statement that fails to prepare fails its pipeline rather than being skipped.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct PostgresConnectionTests {
    private func prepared(on connection: PostgresConnection) throws -> [String] {
        let rows = try connection.execute("SELECT statement FROM pg_prepared_statements ORDER BY statement")
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    @Test func aStatementIsPreparedOnceAndThenRunsPreparedAloneOrInAPipeline() throws {
        let connection = try PostgresConnection(PostgresAddress(PostgresServer.shared.get().makeDatabase()))
        try connection.execute("CREATE TABLE t (n int8)")
        for n in 1...3 { try connection.execute("INSERT INTO t VALUES ($1)", [.int64(Int64(n))]) }
        let results = try connection.pipeline([
            ("INSERT INTO t VALUES ($1)", [.int64(4)]), ("SELECT sum(n)::int8 FROM t", []), ("INSERT INTO t VALUES ($1)", [.int64(5)]),
            ("SELECT sum(n)::int8 FROM t", []),
        ])
        #expect(results[1].int64(0, 0) == 10)
        #expect(results[3].int64(0, 0) == 15)
        let statements = try prepared(on: connection)
        #expect(statements.filter { $0 == "INSERT INTO t VALUES ($1)" }.count == 1)
        #expect(statements.filter { $0 == "SELECT sum(n)::int8 FROM t" }.count == 1)
        // The same text with another parameter type is another statement.
        try connection.execute("INSERT INTO t VALUES ($1)", [.int32(6)])
        #expect(try prepared(on: connection).filter { $0 == "INSERT INTO t VALUES ($1)" }.count == 2)
        #expect(try connection.execute("SELECT sum(n)::int8 FROM t").int64(0, 0) == 21)
    }

    @Test func aStatementThatFailsToPrepareFailsItsPipelineAndTheNextRunsIt() throws {
        let connection = try PostgresConnection(PostgresAddress(PostgresServer.shared.get().makeDatabase()))
        // Preparing a statement on a table not made yet fails; what follows it is skipped.
        let failure = #expect(throws: EventLogError.self) {
            try connection.pipeline([("BEGIN", []), ("INSERT INTO later VALUES ($1)", [.int64(1)]), ("SELECT 1", []), ("COMMIT", [])])
        }
        #expect(failure?.sqlState == "42P01")
        #expect(failure?.message.contains("later") == true)
        try connection.execute("ROLLBACK")
        #expect(try prepared(on: connection).contains("INSERT INTO later VALUES ($1)") == false)
        // A statement whose prepare was skipped after an earlier failure is prepared next time.
        #expect(throws: EventLogError.self) {
            try connection.pipeline([("SELECT 1 / $1", [.int64(0)]), ("SELECT 2 + $1", [.int64(1)])])
        }
        #expect(try prepared(on: connection).contains("SELECT 2 + $1") == false)
        try connection.execute("CREATE TABLE later (n int8)")
        let results = try connection.pipeline([("INSERT INTO later VALUES ($1)", [.int64(1)]), ("SELECT 2 + $1", [.int64(1)])])
        #expect(results[1].int64(0, 0) == 3)
        // A table made again under the prepared statement: the server plans it again.
        try connection.execute("DROP TABLE later")
        try connection.execute("CREATE TABLE later (n int8, m int8)")
        try connection.execute("INSERT INTO later VALUES ($1)", [.int64(7)])
        #expect(try connection.execute("SELECT count(*) FROM later").int64(0, 0) == 1)
    }

    @Test func everyKindOfParameterReachesTheServerAsItWasGiven() throws {
        let connection = try PostgresConnection(PostgresAddress(PostgresServer.shared.get().makeDatabase()))
        let values: [PostgresValue] = [
            .int64(.min), .int64(.max), .int32(-5), .int16(7), .text(""), .text("héllo"), .bytes([]), .bytes([0, 255]), .null,
            .int64Array([1, -2]), .textArray(["a", "", "ü"]), .bytesArray([[1], [], [0xab, 0xcd]]), .int64Array([]),
        ]
        let rows = try connection.execute(
            """
            SELECT $1::text, $2::text, $3::text, $4::text, '<' || $5 || '>', $6, encode($7, 'hex'), encode($8, 'hex'), ($9::int8 IS NULL)::text,
                array_to_string($10, ','), array_to_string($11, '|'), (SELECT string_agg(encode(b, 'hex'), ',' ORDER BY n) FROM unnest($12) WITH ORDINALITY u(b, n)),
                coalesce(cardinality($13), 0)::text
            """,
            values)
        #expect((0..<13).map { rows.text(0, $0) } == [
            "-9223372036854775808", "9223372036854775807", "-5", "7", "<>", "héllo", "", "00ff", "true", "1,-2", "a||ü", "01,,abcd", "0",
        ])
    }

    @Test func aPipelineWithoutBeginIsOneTransactionWhoseFailedCommitThrows() throws {
        let connection = try PostgresConnection(PostgresAddress(PostgresServer.shared.get().makeDatabase()))
        try connection.execute("CREATE TABLE t (n int8 UNIQUE DEFERRABLE INITIALLY DEFERRED)")
        try connection.pipeline([("INSERT INTO t VALUES ($1)", [.int64(1)]), ("INSERT INTO t VALUES ($1)", [.int64(2)])])
        // A statement that fails rolls back the ones before it.
        #expect(throws: EventLogError.self) {
            try connection.pipeline([("INSERT INTO t VALUES ($1)", [.int64(3)]), ("SELECT 1 / $1", [.int64(0)])])
        }
        // The unique check waits for the commit, which the server makes after the last statement.
        let failure = #expect(throws: EventLogError.self) {
            try connection.pipeline([("INSERT INTO t VALUES ($1)", [.int64(4)]), ("INSERT INTO t VALUES ($1)", [.int64(4)])])
        }
        #expect(failure?.sqlState == "23505")
        #expect(failure?.sql == "COMMIT")
        #expect(try connection.execute("SELECT coalesce(sum(n), 0)::int8 FROM t").int64(0, 0) == 3)
        // The connection goes on.
        #expect(try connection.pipeline([("SELECT 2 + $1", [.int64(1)])])[0].int64(0, 0) == 3)
    }
}
