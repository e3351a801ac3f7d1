/// The operations a stream store offers the same way at every door: an in-process `EventLog` and a
/// `StreamConnection` to `streamd` both conform, so code written against `some StreamStore` runs on
/// either, with the same values (`StreamPolicy`, `StreamInfo`, `AppendReceipt`, `StartPosition`).
///
/// Only what both really do alike is here; each door has more of its own (the log's synchronous and
/// callback appends, the connection's conditional appends, message ids and resuming subscriptions).
/// Errors are each door's own (`EventLogError`, `StreamClientError`).
///
/// ```swift
/// func record(_ readings: [[UInt8]], in store: some StreamStore) async throws {
///     try await store.ensureStream("readings", policy: StreamPolicy(capacity: .last(100)))
///     _ = try await store.append(contentsOf: readings, to: "readings")
///     try await store.appendCompleted(to: "readings")
/// }
/// ```
///
/// Thread-safety: conforming types are Sendable, and every member may be called from any task.
public protocol StreamStore: Sendable {
    /// Returns the stream named `stream`, creating it with `policy` if it does not exist; an existing
    /// stream keeps its own policy.
    @discardableResult
    func ensureStream(_ stream: String, policy: StreamPolicy) async throws -> StreamInfo

    /// What `stream` holds and how it is kept, or nil if there is no such stream.
    func streamInfo(_ stream: String) async throws -> StreamInfo?

    /// Deletes `stream` and its events; a stream created later under the name starts again at 1.
    /// Throws if there is no such stream.
    func deleteStream(_ stream: String) async throws

    /// Appends one event to an open stream and returns once it is durable.
    ///
    /// Create the stream first (`ensureStream`): for a missing one the doors differ, an `EventLog`
    /// throws `streamNotFound` where `streamd` creates it with its default policy.
    @discardableResult
    func append(_ payload: [UInt8], to stream: String) async throws -> AppendReceipt

    /// Appends `payloads` as consecutive events and returns once they are durable: one receipt per
    /// payload, in order.
    ///
    /// An `EventLog` stores them in one commit (all or none); `streamd` in one commit per frame, so a
    /// batch too large for one frame is several commits, and a failure keeps the parts before it.
    @discardableResult
    func append(contentsOf payloads: [[UInt8]], to stream: String) async throws -> [AppendReceipt]

    /// Stores the completion of `stream` as its last event; the stream accepts nothing after it.
    @discardableResult
    func appendCompleted(to stream: String) async throws -> AppendReceipt

    /// Stores the failure of `stream`, with `message`, as its last event; the stream accepts nothing
    /// after it.
    @discardableResult
    func appendFailed(to stream: String, message: String) async throws -> AppendReceipt

    /// The values of `stream` from `start`: the stored ones, then each new one as it is stored, in
    /// sequence order, each once, with no gap and no duplicate at the hand-over.
    ///
    /// A stored completion completes the producer; a stored failure fails it with `StreamFailure` of
    /// origin `.stored`; a store that cannot read the stream (no such stream, a lost connection) fails
    /// it with origin `.storage`. Disposing a start stops its reading.
    func follow(_ stream: String, from start: StartPosition) -> SignalProducer<StoredEvent, StreamFailure>
}
