import Reactive
import StreamProtocol
import Synchronization

extension StreamConnection {
    /// How many events a subscription lets the daemon send ahead before it grants more.
    public static let defaultCredit: UInt32 = 256

    /// The events of `stream` from `start`: history, then live, in sequence order, each once.
    ///
    /// Each start sends `SUBSCRIBE` with `credit` and grants more as events are delivered (so a slow
    /// observer slows only its own subscription); disposing the start sends `UNSUBSCRIBE`. A stored
    /// completion completes the producer; a stored failure fails it with `.streamFailed(message)`; a
    /// refused subscription fails with `.server`; a lost connection fails with `.connectionClosed`,
    /// unless `resume` is true: then the subscription reconnects to the same socket as `reconnect` says
    /// and continues after the last sequence it delivered (or, before any, at the first sequence the
    /// daemon had promised), with no gap and no duplicate. Events are delivered on the connection's
    /// event-loop thread: an observer must not block it waiting for a reply on the same connection
    /// (hop with `observe(on:)`, or read with `values(of:in:)` or `events(in:)`, whose credit follows the
    /// consuming task, for slow work).
    public func subscribe(
        _ stream: String, from start: StartPosition = .streamDefault, resume: Bool = false,
        reconnect: ReconnectPolicy = .standard, credit: UInt32 = StreamConnection.defaultCredit
    ) -> SignalProducer<StoredEvent, StreamClientError> {
        subscribe(stream, from: start, resume: resume, reconnect: reconnect, credit: credit, demand: nil)
    }

    /// `subscribe`, with credit granted only as `demand` allows when one is given.
    func subscribe(
        _ stream: String, from start: StartPosition, resume: Bool, reconnect: ReconnectPolicy, credit: UInt32,
        demand: ConsumerDemand?
    ) -> SignalProducer<StoredEvent, StreamClientError> {
        if resume {
            return ResumingSubscription.producer(
                connection: self, stream: stream, start: start, policy: reconnect, credit: credit, demand: demand)
        }
        return subscription(stream, from: start, credit: credit, demand: demand) { _ in }
    }

    /// A plain subscription that also reports the `next_sequence` of its `SUBSCRIBED` reply.
    func subscription(
        _ stream: String, from start: StartPosition, credit: UInt32, demand: ConsumerDemand? = nil,
        subscribed: @escaping @Sendable (UInt64) -> Void
    ) -> SignalProducer<StoredEvent, StreamClientError> {
        SignalProducer { observer, lifetime in
            self.open(
                stream, from: start, credit: max(credit, 1), demand: demand, observer: observer, lifetime: lifetime,
                subscribed: subscribed)
        }
    }

    private func open(
        _ stream: String, from start: StartPosition, credit: UInt32, demand: ConsumerDemand?,
        observer: Observer<StoredEvent, StreamClientError>, lifetime: Lifetime,
        subscribed: @escaping @Sendable (UInt64) -> Void
    ) {
        // Events delivered since credit was last granted. Feeds arrive on the event loop, but the mutex
        // keeps this correct whatever thread a future transport delivers on.
        let delivered = Mutex<UInt32>(0)
        // The id is known only after registering the feed handler that needs it.
        let idBox = Mutex<UInt32>(0)
        let registered = router.addSubscription { [weak self] feed in
            guard let self else { return }
            let id = idBox.withLock { $0 }
            switch feed {
            case let .events(events):
                demand?.received(events.count { $0.kind == .value })
                for event in events {
                    switch event.kind {
                    case .value:
                        observer.send(value: StoredEvent(sequence: event.sequence, timestamp: event.timestamp, payload: event.payload))
                    case .completed:
                        self.finish(id)
                        observer.sendCompleted()
                        return
                    case .failed:
                        self.finish(id)
                        observer.send(error: .streamFailed(String(decoding: event.payload, as: UTF8.self)))
                        return
                    }
                }
                // Under a consumer's demand, credit follows what the consumer takes, not what arrives.
                guard demand == nil else { return }
                let grant = delivered.withLock { count -> UInt32 in
                    count += UInt32(clamping: events.count)
                    guard count >= max(credit / 2, 1) else { return 0 }
                    defer { count = 0 }
                    return count
                }
                guard grant > 0 else { return }
                self.send(.credit(subscriptionID: id, credit: grant))
            case let .ended(reason, message):
                switch reason {
                case .unsubscribed: observer.sendInterrupted()
                case .serverShuttingDown: observer.send(error: .connectionClosed("the daemon is shutting down: \(message)"))
                case .streamDeleted, .error: observer.send(error: .subscriptionEnded(reason: reason, message: message))
                }
            case let .failed(error):
                observer.send(error: error)
            case .deliveries:
                observer.send(error: .protocolViolation("the daemon sent DELIVERIES to subscription \(id), which is no consumer's member"))
            }
        }
        let id: UInt32
        switch registered {
        case let .success(value): id = value
        case let .failure(error): return observer.send(error: error)
        }
        idBox.withLock { $0 = id }
        lifetime.observeEnded { [weak self] in self?.finish(id) }
        let initial = demand?.opened { [weak self] grant in self?.send(.credit(subscriptionID: id, credit: grant)) } ?? credit
        let subscribe = ClientMessage.Subscribe(subscriptionID: id, stream: stream, start: start, credit: initial)
        send(.subscribe(subscribe)) { [weak self] reply in
            switch reply {
            case let .success(.subscribed(_, next)): subscribed(next)
            case let .success(.error(code, message)):
                self?.router.removeSubscription(id)
                observer.send(error: .server(code: code, message: message))
            case let .success(other):
                self?.router.removeSubscription(id)
                observer.send(error: .protocolViolation("expected SUBSCRIBED, got \(other)"))
            case let .failure(error):
                self?.router.removeSubscription(id)
                observer.send(error: error)
            }
        }
    }

    /// Stops a subscription that is still live, telling the daemon.
    private func finish(_ id: UInt32) {
        if router.removeSubscription(id) { send(.unsubscribe(subscriptionID: id)) }
    }
}
