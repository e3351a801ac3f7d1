import EventLog
import Foundation
import PostgresLog
import StreamModel
import StreamdTestSupport
import Testing

/// The two databases a log can live in, for suites that run the same checks on both.
enum Store: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    /// A fresh, empty log of this kind, closed (and its files removed) when the value is released.
    func open(options: EventLogOptions = EventLogOptions()) throws -> OpenedLog {
        switch self {
        case .sqlite:
            let directory = try ShortTemporaryDirectory()
            return OpenedLog(try EventLog(path: directory.database, options: options), keeping: directory)
        case .postgres:
            let url = try PostgresServer.shared.get().makeDatabase()
            return OpenedLog(try PostgresLog(PostgresAddress(url), options: options), keeping: nil)
        }
    }

    /// A fresh log of this kind as the daemon serves it, with `options`; hold `opened` while using it.
    func served(options: EventLogOptions = EventLogOptions()) throws -> (opened: OpenedLog, log: any ServedLog) {
        let opened = try open(options: options)
        return (opened, try #require(opened.log as? any ServedLog))
    }
}

/// A log a test opened, and what it lives in.
///
/// Thread-safety: Sendable; its properties are constants.
final class OpenedLog: Sendable {
    let log: any LogStorage
    private let directory: ShortTemporaryDirectory?

    init(_ log: any LogStorage, keeping directory: ShortTemporaryDirectory?) {
        self.log = log
        self.directory = directory
    }

    deinit { log.close() }
}

/// Whether PostgreSQL can run here; suites that need it are skipped with the reason otherwise.
let postgresAvailable = PostgresServer.unavailableReason == nil
