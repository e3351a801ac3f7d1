import StreamProtocol

extension StreamConnection {
    /// The events of `stream` from `start` up to the last one stored when reading begins, then the end:
    /// a bounded read, where `events(in:from:)` goes on with live events.
    ///
    /// Credit is granted as the consumer takes events, not as they arrive, so however slow the consumer
    /// (a pipe, a file), at most `credit` events are held in memory: a million-event export costs no
    /// more than a hundred-event one. It asks for the stream's last sequence first, then subscribes,
    /// and ends at that sequence (or at once, when the subscription starts past it: nothing to read, or
    /// everything trimmed meanwhile). A stored completion ends it early; a stored failure throws
    /// `.streamFailed`; an unknown stream throws `.server(code: .streamNotFound, …)`. Ending the loop
    /// early, or cancelling its task, unsubscribes (a cancelled loop ends without throwing). It throws
    /// `StreamClientError` only.
    public func history(of stream: String, from start: StartPosition = .all, credit: UInt32 = StreamConnection.defaultCredit) -> StreamHistory {
        StreamHistory(connection: self, stream: stream, start: start, credit: max(credit, 2))
    }
}

/// The events of one bounded read of a stream; see `StreamConnection.history(of:from:credit:)`.
///
/// Each iteration makes its own subscription. Thread-safety: Sendable; an iterator is used by one task.
public struct StreamHistory: AsyncSequence, Sendable {
    /// Each element is one stored event.
    public typealias Element = StoredEvent
    /// A read ends with a `StreamClientError` (see `history(of:from:credit:)`).
    public typealias Failure = StreamClientError

    let connection: StreamConnection
    let stream: String
    let start: StartPosition
    let credit: UInt32

    /// A new read: its own subscription, opened on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: HistoryReader(connection: connection, stream: stream, start: start, credit: credit))
    }

    /// Takes the events one at a time, opening the subscription on the first call.
    public struct Iterator: AsyncIteratorProtocol {
        /// See `StreamHistory.Failure`.
        public typealias Failure = StreamClientError

        let reader: HistoryReader

        /// The next event; nil after the last one stored when the read began.
        public mutating func next() async throws(StreamClientError) -> StoredEvent? {
            try await reader.next()
        }

        /// The next event; see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StreamClientError) -> StoredEvent? {
            try await reader.next()
        }
    }
}

@available(*, unavailable)
extension StreamHistory.Iterator: Sendable {}
