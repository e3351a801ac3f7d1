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
