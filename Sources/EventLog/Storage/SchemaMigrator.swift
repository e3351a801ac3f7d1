/// Recognizes, creates and upgrades the log's schema when a database is opened.
///
/// Thread-safety: stateless; it works on the connection it is given, from the caller's thread.
enum SchemaMigrator {
    /// Makes the database at `connection` a log of the current schema version, or throws why it cannot be.
    ///
    /// An empty file gets the current schema, with incremental auto-vacuum. A file of another application, or of a newer version,
    /// is refused untouched. Older versions run their migrations in order, each in a transaction.
    static func prepare(_ connection: SQLiteConnection, readOnly: Bool) throws(EventLogError) {
        let path = connection.path
        // The first read of a non-SQLite file is where SQLite notices (SQLITE_NOTADB).
        let applicationID = try connection.integer("PRAGMA application_id")
        let version = try connection.integer("PRAGMA user_version")
        let objects = try connection.integer("SELECT count(*) FROM sqlite_master")

        if applicationID == 0 && version == 0 && objects == 0 {
            guard !readOnly else {
                throw EventLogError(.readOnly, "the database is empty and the log was opened read-only, so it cannot create its schema; open it read-write once.", path: path)
            }
            // Only before the first table, and only outside a transaction, does SQLite take this.
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            try inTransaction(connection) { () throws(EventLogError) in try connection.execute(Schema.current) }
            return
        }
        guard applicationID == Schema.applicationID else {
            throw EventLogError(
                .foreignDatabase,
                "\(path) is an SQLite database of another application (application_id \(applicationID), \(objects) schema objects), not a streamd event log; choose another file.",
                path: path)
        }
        if version > Schema.currentVersion {
            throw EventLogError(
                .newerSchema,
                "\(path) has event-log schema version \(version), newer than the \(Schema.currentVersion) this build understands; use a newer streamd, or open a copy made by this version.",
                path: path)
        }
        if version < Schema.currentVersion {
            guard !readOnly else {
                throw EventLogError(.readOnly, "\(path) has schema version \(version) and needs migrating to \(Schema.currentVersion), which a read-only log cannot do; open it read-write once.", path: path)
            }
            try migrate(connection, from: version)
        }
    }

    /// Runs each migration step from `version` up to the current version.
    private static func migrate(_ connection: SQLiteConnection, from version: Int64) throws(EventLogError) {
        var version = version
        while version < Schema.currentVersion {
            guard let step = steps[version] else {
                throw EventLogError(
                    .newerSchema,
                    "\(connection.path) has event-log schema version \(version), which no migration of this build starts from; it was not made by a released streamd.",
                    path: connection.path)
            }
            try inTransaction(connection) { () throws(EventLogError) in
                try connection.execute(step)
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
            version += 1
        }
    }

    /// Migration SQL keyed by the version it starts from; tests open databases of each older version
    /// made from that version's DDL.
    static let steps: [Int64: String] = [1: Schema.migrationFrom1, 2: Schema.migrationFrom2, 3: Schema.migrationFrom3]

    private static func inTransaction(_ connection: SQLiteConnection, _ body: () throws(EventLogError) -> Void) throws(EventLogError) {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
