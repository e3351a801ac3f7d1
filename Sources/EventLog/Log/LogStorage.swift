/// What an event log does, whichever database holds it: the SQLite file (`EventLog`) or PostgreSQL
/// (`PostgresLog`, which several processes share). The same streams, sequences, policies, blocks and
/// live tail; streamd serves either.
///
/// Each method means what `EventLog`'s method of the same name means; one conformance suite checks
/// both. All calls block the calling thread until the database answered.
/// Thread-safety: implementations are Sendable; every method may be called from any thread.
public protocol LogStorage: AnyObject, Sendable {
    @discardableResult func createStream(_ name: String, policy: StreamPolicy) throws -> StreamInfo
    @discardableResult func ensureStream(_ name: String, policy: StreamPolicy) throws -> StreamInfo
    @discardableResult func updatePolicy(of name: String, to policy: StreamPolicy) throws -> StreamInfo
    func deleteStream(_ name: String) throws
    func streamCount() throws -> Int
    func streamInfo(_ name: String) throws -> StreamInfo?
    func streams() throws -> [StreamInfo]
    func storageFigures(of stream: String?) throws -> StorageFigures

    @discardableResult func append(_ payload: [UInt8], to stream: String) throws -> AppendReceipt
    @discardableResult func append(contentsOf payloads: [[UInt8]], to stream: String) throws -> AppendReceipt
    @discardableResult func appendCompleted(to stream: String) throws -> AppendReceipt
    @discardableResult func appendFailed(to stream: String, message: String) throws -> AppendReceipt

    func read(_ stream: String, from position: StartPosition, _ body: (LogEventView) throws -> Bool) throws
    /// The sequence a reader of `stream` starting at `position` now begins with (past the last event
    /// for `.newOnly`).
    func startSequence(of stream: String, from position: StartPosition) throws -> UInt64
    /// Calls `handler` with every commit to `stream` from now on, in sequence order (live tail).
    func observeAppends(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) throws -> AppendObservation

    @discardableResult func truncate(_ stream: String, before sequence: UInt64) throws -> StreamInfo
    @discardableResult func truncate(_ stream: String, keepingLast count: UInt64) throws -> StreamInfo
    @discardableResult func truncate(_ stream: String, olderThan microseconds: Int64) throws -> StreamInfo
    func enforceRetention() throws

    func close()
}

extension EventLog: LogStorage {
    public func startSequence(of stream: String, from position: StartPosition = .streamDefault) throws -> UInt64 {
        try readers.withReader(catalog: false) { reader in try startSequence(loadForReading(stream, reader), position, reader) }
    }
}

/// What streamd needs of a log beyond `LogStorage`: the catalog rows themselves, appends answered
/// through a completion, the live tail without a thread hop, and the operator's commands.
///
/// Thread-safety: as `LogStorage`.
package protocol ServedLog: LogStorage {
    /// The options the log was opened with.
    var options: EventLogOptions { get }
    /// Where the log lives, for messages and `stats`: a file's path, or a URL without its password.
    var location: String { get }
    /// The bytes the log's database takes (the SQLite file and its WAL; PostgreSQL's streamd tables).
    func databaseBytes() -> Int64

    func catalogEntry(_ name: String) throws -> StreamState?
    func catalogEntries() throws -> [StreamState]
    /// The catalog row of stream `name`, created with `policy` (which must be valid) if missing.
    func ensuredStream(_ name: String, policy: StreamPolicy) throws -> StreamState
    /// The row as `StreamInfo`, with what only the blocks tell (first time, bytes before compression).
    func describe(_ state: StreamState) throws -> StreamInfo

    /// Appends `payloads` and calls `completion` once they are durable (or failed); see
    /// `EventLog.append(contentsOf:to:commitOnCallingThreadIfIdle:completion:)`.
    func append(
        contentsOf payloads: [[UInt8]], to stream: String, commitOnCallingThreadIfIdle: Bool,
        completion: @escaping @Sendable (Result<AppendReceipt, EventLogError>) -> Void)
    /// Appends `payloads`, all of `kind`, with their `messageIDs` (one per payload, or none), if
    /// `stream` ends at `expectedLastSequence` when they are numbered (any sequence when nil);
    /// otherwise throws `wrongLastSequence` and stores nothing. The ids are stored with the events
    /// and kept within the stream's `DeduplicationWindow` (its policy's, or the last
    /// `options.deduplicationWindow` events). A log that
    /// `checksMessageIDs` first refuses an append carrying an id kept there, with
    /// `duplicateMessageID` naming the originals, and stores nothing of it.
    func append(
        _ kind: LogEvent.Kind, _ payloads: [[UInt8]], messageIDs: [String?], to stream: String, expectingLastSequence: UInt64?
    ) throws -> AppendReceipt
    /// Whether appends are checked against the stored message ids (a log several processes share);
    /// otherwise its one process checks them, reading each stream's with `rememberedMessageIDs` once.
    var checksMessageIDs: Bool { get }
    /// The message ids `stream` keeps within its de-duplication window at the time of the call, oldest
    /// first, counting every append acknowledged before the call; with `among`, only those of them;
    /// with `newest`, only the newest `limit` of them.
    func rememberedMessageIDs(of stream: String, among ids: [String]?, newest limit: Int?) throws -> [StoredMessageID]
    /// `read(_:from:_:)` for a reader that expects to take about `count` events (a subscriber filling
    /// its frames): a log that fetches blocks a page at a time sizes its first page to it.
    func read(_ stream: String, from position: StartPosition, expecting count: Int, _ body: (LogEventView) throws -> Bool) throws
    /// The live tail for short handlers that neither block nor touch the log (see
    /// `EventLog.observeAppendsImmediately`).
    func observeAppendsImmediately(to stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) throws -> AppendObservation

    func verify() throws -> VerifyReport
    func compact() throws -> CompactionReport

    /// The durable consumers of `stream`, by name.
    func consumers(of stream: String) throws -> [ConsumerRecord]
    /// Adds `record` unless its stream has a consumer of that name; the consumer stored under the
    /// name, bound to the stream's current life (`streamNotFound` when there is no such stream).
    func addConsumer(_ record: ConsumerRecord) throws -> ConsumerRecord
    /// Claims consumer `name` of `stream` under `lease` and returns it as stored; nil when another
    /// owner's lease on it runs (or there is no such consumer).
    func claimConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws -> ConsumerRecord?
    /// Stores the records over their consumers in one transaction, renewing `lease` on each; drops any
    /// whose stream is gone, and returns those it did not store because another owner holds them now.
    func saveConsumers(_ records: [ConsumerRecord], under lease: ConsumerLease) throws -> [ConsumerRecord]
    /// Gives up `lease` on consumer `name` of `stream`, if it holds it.
    func releaseConsumer(_ name: String, of stream: String, under lease: ConsumerLease) throws
    /// Removes a consumer; whether there was one.
    func deleteConsumer(_ name: String, of stream: String) throws -> Bool
}

extension ServedLog {
    /// All the message ids `stream` keeps (see `rememberedMessageIDs(of:among:newest:)`).
    package func rememberedMessageIDs(of stream: String) throws -> [StoredMessageID] {
        try rememberedMessageIDs(of: stream, among: nil, newest: nil)
    }

    /// Those of `ids` that `stream` keeps.
    package func rememberedMessageIDs(of stream: String, among ids: [String]) throws -> [StoredMessageID] {
        try rememberedMessageIDs(of: stream, among: ids, newest: nil)
    }

    /// The newest `limit` ids `stream` keeps, oldest first.
    package func rememberedMessageIDs(of stream: String, newest limit: Int) throws -> [StoredMessageID] {
        try rememberedMessageIDs(of: stream, among: nil, newest: limit)
    }
}

extension EventLog: ServedLog {
    package var location: String { path }
    /// As `read(_:from:_:)`: the file is read a block at a time whatever the count.
    package func read(_ stream: String, from position: StartPosition, expecting count: Int, _ body: (LogEventView) throws -> Bool) throws {
        try read(stream, from: position, body)
    }
    package func databaseBytes() -> Int64 { DatabaseFiles.bytes(path) }
}
