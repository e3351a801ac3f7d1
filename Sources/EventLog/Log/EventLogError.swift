/// The one error type of the EventLog module: what failed, on what, and what to do about it.
///
/// `code` says which kind of failure it is (compare it with the static members of `Code`); the other
/// properties name the database file, the stream, the sequence range and, for SQLite failures, the
/// extended result code and the SQL that failed. `description` is a sentence a person can act on.
///
/// Its door: every throwing call of an in-process `EventLog` (open, append, read, admin) throws this
/// and nothing else. A persistent subject's signal does not: it fails with `StreamFailure`, and a log
/// failure reaches it as `StreamFailure(origin: .storage)` carrying this error's description.
/// Values are immutable and Sendable.
public struct EventLogError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure; new kinds may be added, so switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidStreamName, invalidArgument, streamNotFound, streamExists, streamEnded
            case notADatabase, foreignDatabase, newerSchema, readOnly, diskFull, busy
            case corruptDatabase, corruptBlock, closed, sqlite, io, lostEvents, postgres, unavailable, wrongLastSequence, duplicateMessageID
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A stream name outside the documented charset or length.
        public static let invalidStreamName = Code(.invalidStreamName)
        /// An argument out of range (a negative capacity, an empty batch, …).
        public static let invalidArgument = Code(.invalidArgument)
        /// The named stream is not in the catalog.
        public static let streamNotFound = Code(.streamNotFound)
        /// `createStream` was asked for a name that already exists.
        public static let streamExists = Code(.streamExists)
        /// The stream already stored a terminal event (completed or failed); nothing may follow it.
        public static let streamEnded = Code(.streamEnded)
        /// The file exists but is not an SQLite database.
        public static let notADatabase = Code(.notADatabase)
        /// The file is an SQLite database of another application.
        public static let foreignDatabase = Code(.foreignDatabase)
        /// The database was written by a newer version of the log, whose schema this one cannot read.
        public static let newerSchema = Code(.newerSchema)
        /// The database cannot be written (file permissions, read-only media, or a read-only log).
        public static let readOnly = Code(.readOnly)
        /// The disk, or the database's configured page limit, is full; the failed write left no trace.
        public static let diskFull = Code(.diskFull)
        /// Another process held a lock for longer than the busy timeout.
        public static let busy = Code(.busy)
        /// SQLite reports the database file itself as malformed.
        public static let corruptDatabase = Code(.corruptDatabase)
        /// A stored block failed its CRC, decompression or framing checks.
        public static let corruptBlock = Code(.corruptBlock)
        /// The log was closed before or while the operation ran.
        public static let closed = Code(.closed)
        /// Another SQLite failure; `sqliteCode` and `sql` say which.
        public static let sqlite = Code(.sqlite)
        /// A file-system failure outside SQLite.
        public static let io = Code(.io)
        /// The database holds fewer events than it acknowledged (see `EventLogOptions.acceptLostEvents`).
        public static let lostEvents = Code(.lostEvents)
        /// A conditional append found the stream ending at another sequence than it expected;
        /// `sequences` holds the one it ends at. Nothing was stored.
        public static let wrongLastSequence = Code(.wrongLastSequence)
        /// An append carried a message id its stream stored with one of its recent events (see
        /// `ServedLog.checksMessageIDs`); `duplicates` names them. Nothing was stored.
        package static let duplicateMessageID = Code(.duplicateMessageID)
        /// A PostgreSQL failure other than the kinds above; `sqlState` and `sql` say which.
        public static let postgres = Code(.postgres)
        /// The PostgreSQL server cannot be reached, or the connection to it broke (a failover, a
        /// restart): the operation did not happen, or, for an append, may have; try again.
        public static let unavailable = Code(.unavailable)

        /// The value as a log line or error report shows it.
        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What failed and what to do, as a sentence.
    public let message: String
    /// The database file involved, if any.
    public var path: String?
    /// The stream involved, if any.
    public var stream: String?
    /// The sequence numbers involved, if any (for a damaged block: the block's range).
    public var sequences: ClosedRange<UInt64>?
    /// The SQLite extended result code, when SQLite reported the failure.
    public var sqliteCode: Int32?
    /// The SQL statement that failed, when there was one.
    public var sql: String?
    /// The PostgreSQL error code (SQLSTATE, say `40001`), when PostgreSQL reported the failure.
    public var sqlState: String?
    /// For `duplicateMessageID`: the original of each event whose id was stored before, by the
    /// event's place in the append.
    package var duplicates: [Int: StoredMessageID] = [:]

    /// An error of kind `code` explained by `message`, with optional context.
    public init(
        _ code: Code, _ message: String, path: String? = nil, stream: String? = nil,
        sequences: ClosedRange<UInt64>? = nil, sqliteCode: Int32? = nil, sql: String? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.stream = stream
        self.sequences = sequences
        self.sqliteCode = sqliteCode
        self.sql = sql
    }

    /// The value as a log line or error report shows it.
    public var description: String {
        var text = "EventLogError.\(code): \(message)"
        if let stream { text += " [stream \(stream)]" }
        if let sequences { text += " [sequences \(sequences.lowerBound)...\(sequences.upperBound)]" }
        if let path { text += " [database \(path)]" }
        if let sqliteCode { text += " [SQLite code \(sqliteCode)]" }
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }

    /// The same error with the stream (and sequence range) filled in where they were unknown.
    package func naming(stream name: String, sequences range: ClosedRange<UInt64>? = nil) -> EventLogError {
        var copy = self
        if copy.stream == nil { copy.stream = name }
        if copy.sequences == nil { copy.sequences = range }
        return copy
    }
}
