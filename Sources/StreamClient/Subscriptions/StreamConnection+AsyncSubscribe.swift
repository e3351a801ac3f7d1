extension StreamConnection {
    /// The values of `stream` decoded as `T` with `codec`, history then live, as an async sequence.
    ///
    /// Credit is granted as the loop takes values, not as they arrive: at most `credit` events wait in
    /// the client or on their way from the daemon, however slow the loop (256 by default, about
    /// 1 MiB of 4 KiB events). Breaking out of the loop, or cancelling its task, unsubscribes; a
    /// cancelled loop ends without throwing. It throws `StreamClientError` only: `.streamFailed(message)`
    /// for a stored failure, `.codec` (naming the sequence, the stream and `T`) for a payload that does
    /// not decode, `.server(code: .streamNotFound, …)` for an unknown stream, `.connectionClosed` for a
    /// lost connection, unless `resume` is true: then it reconnects as `reconnect` says and goes on
    /// after the last event received, with no gap and no duplicate. A stored completion ends the loop.
    ///
    /// ```swift
    /// for try await order in connection.values(of: Order.self, in: "orders", from: .all, codec: .json) {
    ///     try await ship(order)
    /// }
    /// ```
    public func values<T: Decodable & Sendable>(
        of type: T.Type, in stream: String, from start: StartPosition = .streamDefault, codec: some EventCodec = .json,
        resume: Bool = false, reconnect: ReconnectPolicy = .standard, credit: UInt32 = StreamConnection.defaultCredit
    ) -> StreamSubscription<T> {
        let codec: any EventCodec = codec
        return subscription(of: stream, from: start, resume: resume, reconnect: reconnect, credit: credit) { event throws(StreamClientError) in
            try Self.decode(T.self, from: event, of: stream, codec: codec)
        }
    }

    /// The events of `stream` decoded as `T`, each with its sequence and timestamp; see
    /// `values(of:in:from:codec:resume:reconnect:credit:)`, which this is but for the envelope.
    public func events<T: Decodable & Sendable>(
        of type: T.Type, in stream: String, from start: StartPosition = .streamDefault, codec: some EventCodec = .json,
        resume: Bool = false, reconnect: ReconnectPolicy = .standard, credit: UInt32 = StreamConnection.defaultCredit
    ) -> StreamSubscription<ReceivedValue<T>> {
        let codec: any EventCodec = codec
        return subscription(of: stream, from: start, resume: resume, reconnect: reconnect, credit: credit) { event throws(StreamClientError) in
            ReceivedValue(sequence: event.sequence, timestamp: event.timestamp, value: try Self.decode(T.self, from: event, of: stream, codec: codec))
        }
    }

    /// The events of `stream` as they were published (bytes), with the same flow control, ends and
    /// errors as `values(of:in:from:codec:resume:reconnect:credit:)`.
    public func events(
        in stream: String, from start: StartPosition = .streamDefault, resume: Bool = false,
        reconnect: ReconnectPolicy = .standard, credit: UInt32 = StreamConnection.defaultCredit
    ) -> StreamSubscription<StoredEvent> {
        subscription(of: stream, from: start, resume: resume, reconnect: reconnect, credit: credit) { event throws(StreamClientError) in event }
    }

    private func subscription<Element: Sendable>(
        of stream: String, from start: StartPosition, resume: Bool, reconnect: ReconnectPolicy, credit: UInt32,
        element: @escaping @Sendable (StoredEvent) throws(StreamClientError) -> Element
    ) -> StreamSubscription<Element> {
        StreamSubscription(
            events: { demand in
                self.subscribe(stream, from: start, resume: resume, reconnect: reconnect, credit: credit, demand: demand)
            },
            credit: max(credit, 2), element: element)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from event: StoredEvent, of stream: String, codec: any EventCodec) throws(StreamClientError) -> T {
        do {
            return try codec.decode(T.self, from: event.payload)
        } catch {
            throw .codec("event \(event.sequence) of \(stream) is not a \(T.self) in \(codec.name): \(error)")
        }
    }
}
