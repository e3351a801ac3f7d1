import EventLog
import Glibc
@testable import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// Both ways a writer takes its streams' rows (the lock the long way reads them with, and the quick
/// way's updates) go in one order, whatever the database's collation: otherwise two writers, one
/// each way, could each hold a row the other waits for.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct LockOrderTests {
    @Test func theLockTakesRowsInTheWritersOrderUnderACollationThatSortsOtherwise() throws {
        let server = try PostgresServer.shared.get()
        let database = "icu\(getpid())"
        try server.sql("CREATE DATABASE \(database) LOCALE_PROVIDER icu ICU_LOCALE 'und' TEMPLATE template0")
        defer { _ = try? server.sql("DROP DATABASE \(database) WITH (FORCE)") }
        let address = try PostgresAddress(server.url(database: database))
        let names = ["B", "a", "a_b", "a-z", "ab", "a.b", "Z", "0"]
        let log = try PostgresLog(address)
        defer { log.close() }
        for name in names { try log.createStream(name, policy: StreamPolicy()) }
        let connection = try PostgresConnection(address)
        let collated = try connection.execute("SELECT name FROM streamd.streams ORDER BY name")
        let order = PostgresCatalog.lockOrder(names)
        #expect((0..<collated.count).map { collated.text($0, 0) } != order, "the database's collation sorts these otherwise")
        try connection.transaction {
            let (sql, parameters) = PostgresCatalog.loadStatement(names.reversed(), locking: true)
            let locked = try connection.execute(sql, parameters)
            #expect((0..<locked.count).map { locked.text($0, 1) } == order)
        }
    }
}
