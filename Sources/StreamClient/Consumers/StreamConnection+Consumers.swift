import Reactive
import StreamProtocol
import Synchronization

extension StreamConnection {
    /// Adds the durable consumer `name` to `stream`; adding one that exists with the same
    /// configuration returns it.
    ///
    /// - Throws: `.server(code: .consumerExists, …)` when the name is taken with another
    ///   configuration, `.server(code: .streamNotFound, …)` when there is no such stream, and
    ///   `.server(code: .unsupportedVersion, …)` without sending anything to a daemon older than
    ///   protocol version 4.
    @discardableResult
    public func addConsumer(_ name: String, on stream: String, config: ConsumerConfig = ConsumerConfig()) async throws -> ConsumerInfo {
        try consumerInfo(from: await consumerRequest(.addConsumer(stream: stream, name: name, config: config)))
    }

    /// Where consumer `name` of `stream` stands.
    public func consumerInfo(_ name: String, on stream: String) async throws -> ConsumerInfo {
        try consumerInfo(from: await consumerRequest(.getConsumerInfo(stream: stream, name: name)))
    }

    /// Every consumer of `stream`, by name.
    public func consumers(of stream: String) async throws -> [ConsumerInfo] {
        let reply = try await consumerRequest(.listConsumers(stream: stream))
        guard case let .consumerList(consumers) = reply else { throw unexpected(reply, "CONSUMER_LIST") }
        return consumers
    }

    /// Deletes consumer `name` of `stream`; its members end.
    public func deleteConsumer(_ name: String, on stream: String) async throws {
        let reply = try await consumerRequest(.deleteConsumer(stream: stream, name: name))
        guard case .ok = reply else { throw unexpected(reply, "OK") }
    }

    /// Moves consumer `name` of `stream` to `sequence` (its next first delivery), forgetting its
    /// pending events.
    @discardableResult
    public func resetConsumer(_ name: String, on stream: String, to sequence: UInt64) async throws -> ConsumerInfo {
        try consumerInfo(from: await consumerRequest(.resetConsumer(stream: stream, name: name, sequence: sequence)))
    }

    /// The events consumer `name` of `stream` hands this member, as bytes.
    ///
    /// Each start attaches one member (`CONSUME`); disposing it detaches, and what it holds unsettled
    /// is delivered again after the ack wait. Any number of members, on any connections, share the
    /// consumer's events: each event goes to one member at a time. A member has at most `credit`
    /// deliveries it has not settled (`ack()` or `nack(delay:)`). Deliveries arrive on the connection's
    /// event loop; hop with `observe(on:)` for slow work, or read with `deliveries(of:on:as:codec:credit:)`.
    /// A deleted consumer or stream fails the producer with `.subscriptionEnded`, a lost connection
    /// with `.connectionClosed` (start it again on a new connection: the consumer goes on where it was).
    /// Shared with `publish()` or `replay()`, one start (one member) serves every observer.
    public func consumer(_ name: String, on stream: String, credit: UInt32 = StreamConnection.defaultCredit) -> SignalProducer<Delivery<[UInt8]>, StreamClientError> {
        consumer(name, on: stream, credit: credit, refillingCredit: true)
    }

    /// `consumer(_:on:credit:)`; without `refillingCredit`, settling a delivery grants no credit
    /// back, so the member takes `credit` events at most (`streamctl next`).
    package func consumer(_ name: String, on stream: String, credit: UInt32, refillingCredit: Bool) -> SignalProducer<Delivery<[UInt8]>, StreamClientError> {
        SignalProducer { observer, lifetime in
            self.attach(name, on: stream, credit: max(credit, 1), refilling: refillingCredit, observer: observer, lifetime: lifetime)
        }
    }

    /// The events consumer `name` of `stream` hands this member, decoded as `T` with `codec`; see
    /// `consumer(_:on:credit:)`. A payload that does not decode fails the producer with `.codec`
    /// (the event stays pending and is delivered again after the ack wait).
    public func consumer<T: Decodable & Sendable>(
        _ name: String, on stream: String, as type: T.Type, codec: some EventCodec = .json, credit: UInt32 = StreamConnection.defaultCredit
    ) -> SignalProducer<Delivery<T>, StreamClientError> {
        let codec: any EventCodec = codec
        let raw = consumer(name, on: stream, credit: credit)
        return SignalProducer { observer, lifetime in
            lifetime += raw.start { event in
                switch event {
                case let .value(delivery):
                    do {
                        observer.send(value: try delivery.map { try codec.decode(T.self, from: $0) })
                    } catch {
                        observer.send(error: .codec("event \(delivery.sequence) of \(stream) is not a \(T.self) in \(codec.name): \(error)"))
                    }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }

    /// `consumer(_:on:as:codec:credit:)` as an async sequence: at most `credit` unsettled deliveries
    /// wait for the loop. Breaking out of the loop, or cancelling its task, detaches the member.
    public func deliveries<T: Decodable & Sendable>(
        of name: String, on stream: String, as type: T.Type, codec: some EventCodec = .json, credit: UInt32 = StreamConnection.defaultCredit
    ) -> AsyncThrowingStream<Delivery<T>, any Error> {
        consumer(name, on: stream, as: type, codec: codec, credit: credit).values
    }

    private func attach(
        _ name: String, on stream: String, credit: UInt32, refilling: Bool, observer: Observer<Delivery<[UInt8]>, StreamClientError>, lifetime: Lifetime
    ) {
        do { try requireConsumers() } catch { return observer.send(error: error) }
        let membership = ConsumerMembership(connection: self, stream: stream, consumer: name, credit: credit, refilling: refilling)
        let registered = router.addSubscription { feed in
            switch feed {
            case let .deliveries(deliveries):
                for delivery in deliveries {
                    let event = delivery.event
                    observer.send(value: Delivery(
                        value: event.payload, sequence: event.sequence, timestamp: event.timestamp, deliveries: delivery.deliveries, membership: membership))
                }
            case .events:
                membership.end()
                observer.send(error: .protocolViolation("the daemon sent EVENTS to consumer member \(membership.id)"))
            case let .ended(reason, message):
                membership.end()
                if reason == .unsubscribed { observer.sendInterrupted() } else { observer.send(error: .subscriptionEnded(reason: reason, message: message)) }
            case let .failed(error):
                membership.end()
                observer.send(error: error)
            }
        }
        let id: UInt32
        switch registered {
        case let .success(value): id = value
        case let .failure(error): return observer.send(error: error)
        }
        membership.id = id
        lifetime.observeEnded { [weak self] in
            membership.end()
            if let self, self.router.removeSubscription(id) { self.send(.unsubscribe(subscriptionID: id)) }
        }
        send(.consume(.init(subscriptionID: id, stream: stream, consumer: name, credit: credit))) { [weak self] reply in
            let error: StreamClientError
            switch reply {
            case .success(.subscribed): return
            case let .success(.error(code, message)): error = .server(code: code, message: message)
            case let .success(other): error = .protocolViolation("expected SUBSCRIBED, got \(other)")
            case let .failure(failure): error = failure
            }
            self?.router.removeSubscription(id)
            membership.end()
            observer.send(error: error)
        }
    }

    private func consumerRequest(_ message: ClientMessage) async throws -> ServerMessage {
        try requireConsumers()
        return try await request(message)
    }

    private func requireConsumers() throws(StreamClientError) {
        try require(version: ProtocolVersions.consumers, for: "durable consumers")
    }

    private func consumerInfo(from reply: ServerMessage) throws -> ConsumerInfo {
        guard case let .consumerInfo(info) = reply else { throw unexpected(reply, "CONSUMER_INFO") }
        return info
    }
}
