import ArgumentParser
import EventLog
import Foundation
import StreamClient
import StreamProtocol

/// `streamctl compact`: give the space deleted streams and events left inside the database back to the
/// file system, through the daemon or on a stopped daemon's file.
struct CompactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Give the space that rm, truncate and retention freed inside the database back to the file system now.",
        discussion: """
            The daemon does this by itself, in steps of about a millisecond between publishes, once \
            deletions freed 4 MiB; compact does it at once and empties the write-ahead log. A database \
            created by an older streamd (before incremental reclaiming) cannot shrink in steps: compact \
            rewrites it once (a full VACUUM), which holds every publish until it ends and needs free disk \
            space of about twice the data kept. With --db PATH the file of a stopped daemon is compacted \
            by streamctl itself. Needs the admin right on every stream.
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: Streamctl

    /// The options given after the verb, or else before it.
    private var options: GlobalOptions { global.merged(with: root.global) }

    @Option(name: .long, help: ArgumentHelp("Compact this database file directly (the daemon must be stopped).", valueName: "path"))
    var db: String?

    struct Summary: Encodable {
        var source: String
        var database: String?
        var bytesBefore: UInt64
        var bytesAfter: UInt64
        var reclaimedBytes: UInt64
        var rewrote: Bool
        var durationMs: UInt64
    }

    func run() async throws {
        var summary: Summary?
        if let db {
            try await Daemon.report { summary = try Self.offline(db) }
        } else {
            try await Daemon.run(options) { connection in
                let compaction: ServerMessage.Compaction
                do {
                    compaction = try await connection.compact()
                } catch let error as StreamClientError {
                    throw CtlFailure("cannot compact: \(Daemon.message(for: error, socket: connection.socketPath))")
                }
                summary = Self.summary(compaction, source: "daemon", database: nil)
            }
        }
        guard let summary else { return }
        try await Daemon.report {
            if options.json { return try Output.json(summary) }
            let place = summary.database ?? "the daemon's log"
            let how = summary.rewrote ? "rewrote it whole, in" : "in steps, in"
            try Output.line(
                "compacted \(place): \(Formatting.bytes(summary.bytesBefore)) → \(Formatting.bytes(summary.bytesAfter)) "
                    + "(database and write-ahead log), \(Formatting.bytes(summary.reclaimedBytes)) given back; "
                    + "\(how) \(Formatting.duration(milliseconds: summary.durationMs))")
        }
    }

    /// Compacts the file itself, holding the daemon's database lock so no daemon starts meanwhile.
    private static func offline(_ path: String) throws -> Summary {
        let lock = try OfflineLock(databasePath: path)
        defer { lock.release() }
        var options = EventLogOptions()
        // A reserve file would be created beside the database just for this run.
        options.diskReserveBytes = 0
        let log = try EventLog(path: path, options: options)
        defer { log.close() }
        let report = try log.compact()
        return summary(
            ServerMessage.Compaction(
                bytesBefore: UInt64(max(0, report.bytesBefore)), bytesAfter: UInt64(max(0, report.bytesAfter)),
                rewrote: report.rewrote, milliseconds: UInt64(max(0, report.milliseconds))),
            source: "file", database: path)
    }

    private static func summary(_ compaction: ServerMessage.Compaction, source: String, database: String?) -> Summary {
        Summary(
            source: source, database: database, bytesBefore: compaction.bytesBefore, bytesAfter: compaction.bytesAfter,
            reclaimedBytes: compaction.reclaimedBytes, rewrote: compaction.rewrote, durationMs: compaction.milliseconds)
    }
}
