import Reactive

/// One event of a stream decoded as `Value`, with where it sits in the stream.
///
/// Thread-safety: a value type, Sendable when `Value` is.
public struct ReceivedValue<Value> {
    /// The per-stream sequence number.
    public var sequence: UInt64
    /// When it was stored, in microseconds since the Unix epoch.
    public var timestamp: Int64
    /// The decoded payload.
    public var value: Value

    /// A decoded event.
    public init(sequence: UInt64, timestamp: Int64, value: Value) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.value = value
    }
}

extension ReceivedValue: Sendable where Value: Sendable {}
extension ReceivedValue: Equatable where Value: Equatable {}
extension ReceivedValue: Hashable where Value: Hashable {}

/// The events of a live subscription to a stream, as an async sequence that throws `StreamClientError`;
/// see `StreamConnection.values(of:in:from:codec:resume:reconnect:credit:)`.
///
/// Each iteration makes its own subscription, opened on the first `next()`. Credit follows the
/// consuming task: at most `credit` events (256 by default) are ever buffered in the client or on their
/// way from the daemon, however slow the loop. Breaking out of the loop, or cancelling its task, ends
/// the subscription in the daemon; a cancelled iteration ends without throwing.
///
/// ```swift
/// for try await order in connection.values(of: Order.self, in: "orders", from: .all, codec: .json) {
///     try await ship(order)  // the daemon sends no more than the credit ahead of this loop
/// }
/// ```
///
/// Thread-safety: Sendable; an iterator is used by one task.
public struct StreamSubscription<Element: Sendable>: AsyncSequence, Sendable {
    /// A subscription ends with a `StreamClientError`: `.streamFailed` for a stored failure, `.codec`
    /// for a payload that does not decode, `.server` for a refused subscription, `.subscriptionEnded`
    /// when the daemon ends it, `.connectionClosed` when the connection is lost (and not resumed).
    public typealias Failure = StreamClientError

    let events: @Sendable (ConsumerDemand) -> SignalProducer<StoredEvent, StreamClientError>
    let credit: UInt32
    let element: @Sendable (StoredEvent) throws(StreamClientError) -> Element

    /// A new subscription, opened on the iterator's first `next()`.
    public func makeAsyncIterator() -> Iterator {
        let demand = ConsumerDemand(window: credit)
        return Iterator(reader: SubscriptionReader(events: events(demand), demand: demand), element: element)
    }

    /// Takes the events one at a time, opening the subscription on the first call.
    public struct Iterator: AsyncIteratorProtocol {
        /// See `StreamSubscription.Failure`.
        public typealias Failure = StreamClientError

        let reader: SubscriptionReader
        let element: @Sendable (StoredEvent) throws(StreamClientError) -> Element

        /// The next element; nil when the stream completes or the task is cancelled.
        public mutating func next() async throws(StreamClientError) -> Element? {
            try await Self.next(from: reader, element)
        }

        /// The next element; see `next()`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StreamClientError) -> Element? {
            try await Self.next(from: reader, element)
        }

        private static func next(
            from reader: SubscriptionReader, _ element: @Sendable (StoredEvent) throws(StreamClientError) -> Element
        ) async throws(StreamClientError) -> Element? {
            guard let event = try await reader.next() else { return nil }
            do {
                return try element(event)
            } catch {
                // A value that cannot be read ends the subscription: later ones would be read out of order.
                reader.cancel()
                throw error
            }
        }

        /// The most events that ever waited in this iteration's buffer at once (at most the credit).
        package var peakBuffered: Int { reader.demand.peakWaiting }

        /// The events waiting in this iteration's buffer now.
        package var buffered: Int { reader.demand.waiting }
    }
}

@available(*, unavailable)
extension StreamSubscription.Iterator: Sendable {}
