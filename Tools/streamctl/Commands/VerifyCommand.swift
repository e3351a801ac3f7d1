import ArgumentParser
import EventLog
import Foundation
import PostgresLog
import StreamProtocol

/// `streamctl verify [STREAM]`: the log's integrity check, through the daemon or on a stopped daemon's file.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the event log's integrity (blocks, checksums, sequences, catalog), through the daemon or offline with --db.",
        discussion: """
            With --db PATH the database file is opened read-only by streamctl itself, for a daemon that is \
            stopped; while a daemon serves the file, drop --db to verify through it. With --db \
            postgres://USER@HOST:PORT/DATABASE streamctl reads the PostgreSQL log in one snapshot, whether \
            daemons serve it or not. Exit status 1 when problems are found.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Argument(help: "Only report this stream's problems (and those of the whole database).")
    var stream: String?

    @Option(name: .long, help: ArgumentHelp("Verify this database file (the daemon must be stopped) or PostgreSQL URL directly.", valueName: "path|url"))
    var db: String?

    struct Report: Encodable {
        struct Problem: Encodable {
            var stream: String?
            var firstSequence: UInt64?
            var lastSequence: UInt64?
            var message: String
        }

        var source: String
        var database: String?
        var stream: String?
        var ok: Bool
        var streams: UInt32
        var blocks: UInt64
        var events: UInt64
        var problems: [Problem]
    }

    func validate() throws {
        if let stream { try Daemon.validate(name: stream) }
    }

    func run() async throws {
        var report: Report?
        if let db {
            try await Daemon.report { report = try offline(db) }
        } else {
            try await Daemon.run(options) { connection in
                report = Self.report(try await connection.verify(stream: stream), source: "daemon", database: nil, stream: stream)
            }
        }
        guard let report else { return }
        try await Daemon.report {
            if options.json {
                try Output.json(report)
            } else {
                let place = report.database.map { "\($0)" } ?? "the daemon's log"
                try Output.line("verified \(place): \(Formatting.count(UInt64(report.streams), "stream")), \(Formatting.count(report.blocks, "block")), "
                    + "\(Formatting.count(report.events, "event")): " + (report.ok ? "no problems" : Formatting.count(UInt64(report.problems.count), "problem")))
                for problem in report.problems {
                    var location = problem.stream.map { "stream \($0)" } ?? "database"
                    if let first = problem.firstSequence, let last = problem.lastSequence { location += " " + Formatting.sequences(first, last) }
                    try Output.line("  \(location): \(problem.message)")
                }
            }
        }
        if !report.ok {
            throw CtlFailure("verify found \(Formatting.count(UInt64(report.problems.count), "problem")).", code: "verify_problems")
        }
    }

    /// Verifies the file itself, holding the daemon's database lock so no daemon starts meanwhile, or
    /// the PostgreSQL log a URL names, in one read snapshot.
    private func offline(_ path: String) throws -> Report {
        if let address = try? PostgresAddress(path) {
            return try Self.report(result(PostgresLog.verify(address)), source: "postgres", database: address.description, stream: stream)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CtlFailure("no database at \(path); give the path streamd uses (its --db, or STREAMD_DB).")
        }
        if isDirectory.boolValue {
            throw CtlFailure("\(path) is a directory, not a database file; give --db the file streamd uses (its --db, or STREAMD_DB).")
        }
        // Read-only: no lock file, no -wal or -shm is created beside the file (see `OfflineLock` and
        // `readOnlyOptions`).
        let lock = try OfflineLock(databasePath: path)
        defer { lock.release() }
        // A crashed daemon's log with frames, in a directory streamctl cannot write: read a private copy.
        // One whose journal holds appends the database does not: store them into a copy, and read that.
        let directory = (path as NSString).deletingLastPathComponent
        let journaled = try EventLog.journalHoldsAppends(databasePath: path)
        let copy = journaled || Self.walHasFrames(path) && access(directory.isEmpty ? "." : directory, W_OK) != 0
            ? try PrivateCopy(of: path, sideFiles: journaled ? EventLog.sideFileSuffixes : []) : nil
        defer { copy?.remove() }
        let readPath = copy?.database ?? path
        let log = try EventLog(path: readPath, options: journaled ? Self.replayOptions : Self.readOnlyOptions(for: readPath))
        defer { log.close() }
        if let stream, try log.streamInfo(stream) == nil {
            throw CtlFailure("no stream named \"\(stream)\" in \(path).")
        }
        return Self.report(result(try log.verify()), source: "file", database: path, stream: stream)
    }

    /// What `found` says, as the daemon would answer it: with a stream given, only its problems and
    /// the database-wide ones.
    private func result(_ found: VerifyReport) -> VerifyResult {
        VerifyResult(
            streams: UInt32(clamping: found.streamCount), blocks: UInt64(found.blockCount), events: found.eventCount,
            problems: found.problems
                .filter { stream == nil || $0.stream == nil || $0.stream == stream }
                .map { VerifyResult.Problem(stream: $0.stream, sequences: $0.sequences, message: $0.message) })
    }

    /// Options that read a stopped daemon's database without creating anything beside it.
    ///
    /// SQLite's plain read-only open of a WAL database creates `-wal` and `-shm` when they are missing.
    /// With an empty or absent write-ahead log (a daemon stopped cleanly), `immutable` reads the file
    /// with no locks and no side files, which is exact because the shared lock keeps any daemon from
    /// starting. A log with frames (a daemon that crashed) must be read through its WAL; SQLite's
    /// `unix-excl` VFS then keeps the WAL index in memory and creates nothing, but needs a directory
    /// it could write (elsewhere `offline` reads a `PrivateCopy`).
    static func readOnlyOptions(for path: String) -> EventLogOptions {
        var options = EventLogOptions()
        options.readOnly = true
        if walHasFrames(path) {
            options.exclusiveToProcess = true
        } else {
            options.immutable = true
        }
        return options
    }

    /// Options that open a private copy for writing, so that its journal is stored into it: exclusive
    /// to streamctl, with no disk reserve beside it.
    static var replayOptions: EventLogOptions {
        var options = EventLogOptions()
        options.exclusiveToProcess = true
        options.diskReserveBytes = 0
        return options
    }

    /// Whether the database's write-ahead log exists and holds frames (a daemon that did not stop cleanly).
    private static func walHasFrames(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    private static func report(_ result: VerifyResult, source: String, database: String?, stream: String?) -> Report {
        Report(
            source: source, database: database, stream: stream, ok: result.problems.isEmpty, streams: result.streams,
            blocks: result.blocks, events: result.events,
            problems: result.problems.map {
                Report.Problem(stream: $0.stream, firstSequence: $0.sequences?.lowerBound, lastSequence: $0.sequences?.upperBound, message: $0.message)
            })
    }
}
