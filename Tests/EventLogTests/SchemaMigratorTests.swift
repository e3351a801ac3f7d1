import CSQLite
import Foundation
import StreamdTestSupport
import Testing
@testable import EventLog

/// Runs `sql` on the database at `path` with a plain SQLite connection, as another program would.
func rawSQL(_ path: String, _ sql: String) throws {
    let connection = try SQLiteConnection(path: path, readOnly: false, create: true, busyTimeoutMilliseconds: 2_000)
    try connection.execute(sql)
}

/// The SQL that takes a current file back to version 3 (the user_version aside): what version 4 added
/// removed.
let removingVersion4 = """
    DROP TABLE consumers;
    ALTER TABLE streams DROP COLUMN dedup_events;
    ALTER TABLE streams DROP COLUMN dedup_age_us;
    """

@Suite struct SchemaMigratorTests {
    @Test func aNewFileGetsTheSchemaVersionAndApplicationID() throws {
        let dir = TemporaryDirectory()
        _ = try EventLog(path: dir.file())
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        #expect(try connection.integer("PRAGMA user_version") == Schema.currentVersion)
        #expect(try connection.integer("PRAGMA application_id") == Schema.applicationID)
        #expect(try connection.text("PRAGMA journal_mode") == "wal")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedUntouched() throws {
        let dir = TemporaryDirectory()
        let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: URL(fileURLWithPath: dir.file()))
        let error = expectLogError(.notADatabase) { _ = try EventLog(path: dir.file()) }
        #expect(error?.path == dir.file())
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file())) == junk)
    }

    @Test func aDatabaseOfAnotherApplicationIsRefused() throws {
        let dir = TemporaryDirectory()
        try rawSQL(dir.file(), "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')")
        let error = expectLogError(.foreignDatabase) { _ = try EventLog(path: dir.file()) }
        #expect(error?.message.contains("another application") == true)
        try rawSQL(dir.file(), "PRAGMA application_id = 42")
        expectLogError(.foreignDatabase) { _ = try EventLog(path: dir.file()) }
    }

    @Test func aNewerSchemaVersionIsRefusedWithAdvice() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("s")
            try log.append([1], to: "s")
        }
        try rawSQL(dir.file(), "PRAGMA user_version = \(Schema.currentVersion + 1)")
        let error = expectLogError(.newerSchema) { _ = try EventLog(path: dir.file()) }
        #expect(error?.message.contains("newer streamd") == true)
    }

    @Test func anUnknownOlderVersionHasNoMigrationAndIsRefused() throws {
        let dir = TemporaryDirectory()
        try rawSQL(dir.file(), "PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 0; CREATE TABLE t(x)")
        expectLogError(.newerSchema) { _ = try EventLog(path: dir.file()) }
    }

    /// Whether a file can be made unwritable here: by its permission bits, or, as root (whom they do not
    /// stop), by `chattr +i`, which some file systems (tmpfs, overlay) refuse. Where it cannot, the test
    /// below shows as skipped rather than passing without checking anything.
    static let aFileCanBeMadeUnwritable: Bool = {
        guard geteuid() == 0 else { return true }
        let dir = TemporaryDirectory()
        let probe = dir.file()
        guard FileManager.default.createFile(atPath: probe, contents: Data()), run("/usr/bin/chattr", ["+i", probe]) == 0 else { return false }
        _ = run("/usr/bin/chattr", ["-i", probe])
        return true
    }()

    @Test(.enabled(if: aFileCanBeMadeUnwritable, "this file system refuses chattr +i, and root ignores permission bits"))
    func aFileThatCannotBeWrittenIsReportedAndCanBeOpenedReadOnly() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("s")
            try log.append(contentsOf: [[1], [2]], to: "s")
            try log.checkpoint()
        }
        // Root ignores permission bits, so make the file immutable instead when running as root.
        let asRoot = geteuid() == 0
        if asRoot {
            try #require(Self.run("/usr/bin/chattr", ["+i", dir.file()]) == 0, "chattr +i failed on a file system where it worked for the probe")
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: dir.file())
        }
        defer { if asRoot { _ = Self.run("/usr/bin/chattr", ["-i", dir.file()]) } }
        let error = expectLogError(.readOnly) { _ = try EventLog(path: dir.file()) }
        #expect(error?.message.contains("readOnly") == true)

        var options = EventLogOptions()
        options.readOnly = true
        let log = try EventLog(path: dir.file(), options: options)
        #expect(try log.readAll("s").map(\.payload) == [[1], [2]])
        expectLogError(.readOnly) { try log.append([3], to: "s") }
        expectLogError(.readOnly) { try log.createStream("t") }
        #expect(try log.verify().isClean)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        guard (try? process.run()) != nil else { return -1 }
        return process.waitForExitStatus() ?? -1
    }
}

extension SchemaMigratorTests {
    @Test func aDatabaseMadeFromTheVersion1SchemaFileByAnotherProgramOpens() throws {
        let dir = TemporaryDirectory()
        // What an earlier build (or a tool working from schemas/eventlog.sql) leaves behind.
        try rawSQL(dir.file(), Schema.version1 + """
            INSERT INTO streams (name, created_us) VALUES ('legacy', 1);
            """)
        let log = try EventLog(path: dir.file())
        #expect(try log.streamInfo("legacy")?.lastSequence == 0)
        #expect(try log.append([1], to: "legacy").sequence == 1)
        #expect(try log.verify().isClean)
    }

    @Test func aVersion1LogWithEventsIsMigratedAndReadsTheSame() throws {
        let dir = TemporaryDirectory()
        var stream: [[UInt8]] = []
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("a")
            try log.createStream("b", policy: StreamPolicy(capacity: .last(500)))
            for index in 0..<40 {
                let batch = (0..<(index % 7 + 1)).map { Array("a-\(index)-\($0)".utf8) }
                try log.append(contentsOf: batch, to: "a")
                stream.append(contentsOf: batch)
                try log.append(Array("b-\(index)".utf8), to: "b")
            }
            try log.appendCompleted(to: "b")
            log.close()
        }
        // Back to version 1 by hand: the blocks as an earlier build stored them, with its two indexes.
        let start = Schema.version1.range(of: "CREATE TABLE blocks (")!
        let end = Schema.version1.range(of: "ON blocks (stream_id, last_ts, last_seq);")!
        try rawSQL(dir.file(), """
            BEGIN;
            ALTER TABLE blocks RENAME TO blocks_v2;
            \(Schema.version1[start.lowerBound..<end.upperBound])
            INSERT INTO blocks SELECT stream_id, first_seq, last_seq, first_ts, last_ts, count, codec, raw_size, crc32, payload FROM blocks_v2;
            DROP TABLE blocks_v2;
            DROP TABLE message_ids;
            \(removingVersion4)
            PRAGMA user_version = 1;
            COMMIT;
            """)

        let log = try EventLog(path: dir.file())
        let connection = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        #expect(try connection.integer("PRAGMA user_version") == Schema.currentVersion)
        #expect(try connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'blocks_by%'") == 0)
        #expect(try log.readAll("a").map(\.payload) == stream)
        #expect(try log.readAll("b").map(\.kind).last == .completed)
        #expect(try log.readAll("b").count == 41)
        #expect(try log.verify().isClean)
        #expect(try log.append([9], to: "a").sequence == UInt64(stream.count + 1))
    }

    @Test func everyMigrationStepStartsFromAnOlderVersion() {
        #expect(SchemaMigrator.steps.keys.allSatisfy { $0 >= 1 && $0 < Schema.currentVersion })
    }
}
