extension EventLog {
    /// Whether the journal beside the database at `databasePath` holds appends from a process that
    /// stopped before storing them (a crashed streamd): opening the log for writing stores them;
    /// a read-only open refuses the log until then.
    package static func journalHoldsAppends(databasePath: String) throws -> Bool {
        guard let journal = try Journal.openForReading(forDatabase: databasePath) else { return false }
        return try !journal.records().isEmpty
    }

    /// The files beside a database that opening it reads besides its WAL: the journal and the marks.
    package static let sideFileSuffixes = [".journal", ".marks"]
}
