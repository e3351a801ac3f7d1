import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// The tables' definition, their version, and what a wrong URL or an absent server gets.
@Suite(.enabled(if: postgresAvailable, "needs root and Debian's postgresql package"))
struct PostgresSchemaTests {
    @Test func theSchemaFileIsTheOneTheLogRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("schemas/eventlog-postgres.sql"), encoding: .utf8)
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        try PostgresLog(PostgresAddress(url)).close()
        let database = String(url.split(separator: "/").last!)
        #expect(try server.sql("SELECT version FROM streamd.version", database: database) == "3\n")
        // What the log made is what the file makes: the same tables and columns.
        let columns = "SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = 'streamd' ORDER BY 1"
        let made = try server.sql(columns, database: database)
        let other = try server.makeDatabase()
        let otherName = String(other.split(separator: "/").last!)
        try server.sql(file, database: otherName)
        #expect(try server.sql(columns, database: otherName) == made)
        #expect(made.contains("blocks.payload bytea") && made.contains("streams.last_seq bigint") && made.contains("message_ids.message_id text") && made.contains("consumers.pending bytea"))
    }

    /// A database the log made, with the stream "kept" written by `fill`, then taken back to an older
    /// version by `downgrade` (SQL), and opened again: the log it opened migrated it.
    private func migrated(fill: (PostgresLog) throws -> Void, downgrade: String) throws -> (log: PostgresLog, version: String) {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!)
        do {
            let log = try PostgresLog(PostgresAddress(url))
            try log.createStream("kept", policy: StreamPolicy())
            try fill(log)
            log.close()
        }
        try server.sql(downgrade, database: database)
        let log = try PostgresLog(PostgresAddress(url))
        return (log, try server.sql("SELECT version FROM streamd.version", database: database))
    }

    /// What version 3 added, removed.
    private let removingVersion3 = "DROP TABLE streamd.consumers; ALTER TABLE streamd.streams DROP COLUMN dedup_events, DROP COLUMN dedup_age_us;"

    @Test func tablesOfVersion1GainTheMessageIdsAndKeepTheirStreams() throws {
        // What a build before the message ids left.
        let (log, version) = try migrated(
            fill: { try $0.append(contentsOf: [[1], [2]], to: "kept") },
            downgrade: "DROP TABLE streamd.message_ids; \(removingVersion3) UPDATE streamd.version SET version = 1")
        defer { log.close() }
        #expect(version == "3\n")
        #expect(try log.readAll("kept", from: .all).map(\.payload) == [[1], [2]])
        _ = try log.append(.value, [[3]], messageIDs: ["after"], to: "kept", expectingLastSequence: nil)
        #expect(try log.rememberedMessageIDs(of: "kept").map(\.sequence) == [3])
    }

    @Test func tablesOfVersion2GainTheConsumersAndKeepTheirStreams() throws {
        let (log, version) = try migrated(
            fill: { _ = try $0.append(.value, [[1]], messageIDs: ["first"], to: "kept", expectingLastSequence: nil) },
            downgrade: "\(removingVersion3) UPDATE streamd.version SET version = 2")
        defer { log.close() }
        #expect(version == "3\n")
        #expect(try log.rememberedMessageIDs(of: "kept").map(\.id) == ["first"])
        let added = try log.addConsumer(ConsumerRecord(stream: "kept", streamCreated: 0, name: "c", config: ConsumerConfig(), nextSequence: 1))
        #expect(try log.consumers(of: "kept") == [added])
    }

    @Test func tablesOfANewerVersionAreRefusedWithASentence() throws {
        let server = try PostgresServer.shared.get()
        let url = try server.makeDatabase()
        try PostgresLog(PostgresAddress(url)).close()
        try server.sql("UPDATE streamd.version SET version = 9", database: String(url.split(separator: "/").last!))
        let error = expectLogError(.newerSchema) { _ = try PostgresLog(PostgresAddress(url)) }
        #expect(error?.message.contains("schema version 9, newer than the 3 this streamd knows; run a newer streamd.") == true, "\(String(describing: error))")
    }

    @Test func twoLogsOpeningAnEmptyDatabaseTogetherMakeTheTablesOnce() async throws {
        let url = try PostgresServer.shared.get().makeDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await onOwnThread { try PostgresLog(PostgresAddress(url)).close() } } }
            try await group.waitForAll()
        }
    }

    @Test func anAbsentServerIsUnavailableWithASentenceThatHidesThePassword() throws {
        let directory = try ShortTemporaryDirectory()
        let host = directory.path.replacingOccurrences(of: "/", with: "%2F")
        let url = "postgresql://someone:secret@\(host):5432/db"
        let error = expectLogError(.unavailable) { _ = try PostgresLog(PostgresAddress(url)) }
        let message = error?.message ?? ""
        #expect(message.hasPrefix("cannot connect to PostgreSQL at postgresql://someone:***@"), "\(message)")
        #expect(!message.contains("secret"), "\(message)")
        #expect(message.hasSuffix("check that the server runs and that the URL's host, port, user, password and database are right."), "\(message)")
    }

    @Test func aURLThatIsNotPostgresIsRefusedWithASentenceThatNeverShowsItsPassword() throws {
        let error = #expect(throws: PostgresAddressError.self) { try PostgresAddress("postgre://u:secret@h/db") }
        #expect(error?.description == "postgre://… is not a PostgreSQL URL; write it as postgres://USER@HOST:PORT/DATABASE (or postgresql://…).")
        let unreadable = #expect(throws: PostgresAddressError.self) { try PostgresAddress("postgres://u:s3cr%zzet@h/db") }
        #expect(unreadable?.description.contains("s3cr") == false, "\(String(describing: unreadable))")
        #expect(unreadable?.description.hasPrefix("the postgres://… URL given is not one libpq can read") == true)
    }

    /// Every way libpq takes a password is masked, as libpq reads the URL (the user part ends at the
    /// first @ before any /, a parameter's name may be percent-encoded).
    @Test(arguments: [
        ("postgres://u:pw@h/db?sslmode=require&password=pw2", "postgres://u:***@h/db?sslmode=require&password=***"),
        ("postgres://u:pa?ss@h/db", "postgres://u:***@h/db"),
        ("postgres://u@h/db?sslpassword=x&password=secret", "postgres://u@h/db?sslpassword=***&password=***"),
        ("postgres://u@h/db?pass%77ord=secret", "postgres://u@h/db?pass%77ord=***"),
        ("postgresql://streamd@%2Ftmp%2Fpg:5432/bench", "postgresql://streamd@%2Ftmp%2Fpg:5432/bench"),
    ])
    func passwordsAreMasked(url: String, shown: String) throws {
        #expect(try PostgresAddress(url).description == shown)
    }
}
