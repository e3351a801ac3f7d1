import Synchronization

extension SignalProducer {
    /// A connection that shares one start of this producer through a `PassthroughSubject`: observers
    /// see the events sent after they attached.
    public func publish() -> MulticastConnection<Value, Failure> {
        MulticastConnection(self, subject: PassthroughSubject())
    }

    /// A connection that shares one start of this producer through `subject`.
    public func multicast(_ subject: some Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
        MulticastConnection(self, subject: subject)
    }

    /// Starts this producer at once and shares it: every start of the returned producer receives the
    /// values kept so far (all of them by default), then the live events and the terminal event, if any.
    ///
    /// The source runs until it terminates, or until nobody can observe it any more: when the returned
    /// producer (and every copy of it) is gone and all its starts are disposed, the source is
    /// interrupted. Disposing a start only detaches that subscriber.
    public func replay(upTo capacity: ReplayCapacity = .unlimited) -> SignalProducer {
        replayed(capacity: capacity, lazily: false)
    }

    /// Like `replay()`, keeping only the latest value: a late subscriber gets the last value, then the
    /// live events.
    public func replayLast() -> SignalProducer {
        replayed(capacity: .last, lazily: false)
    }

    /// Like `replay(upTo:)` but the source starts only with the first start of the returned producer.
    ///
    /// Once started, the source is not interrupted when all the subscribers leave: the kept values must
    /// stay one coherent run of the source, and restarting it would either repeat values in the buffer
    /// or throw the cache away, which is what `replayLazily` exists to avoid. (ReactiveCocoa 2 kept it
    /// running forever; like ReactiveSwift, it is interrupted instead when the returned producer and all
    /// its starts are gone, since nobody can ever see its events then.)
    public func replayLazily(upTo capacity: ReplayCapacity = .unlimited) -> SignalProducer {
        replayed(capacity: capacity, lazily: true)
    }

    fileprivate func replayed(capacity: ReplayCapacity, lazily: Bool) -> SignalProducer {
        replayed(through: ReplaySubject(capacity: capacity), connecting: lazily ? .onFirstStart : .now)
    }

    /// When a replaying producer starts its source.
    package enum ReplayConnection: Sendable {
        /// At once.
        case now
        /// With the first start of the replaying producer.
        case onFirstStart
        /// Never: the subject already holds a finished run.
        case never
    }

    /// The engine of every `replay` variant: shares one start of this producer through `subject`, whose
    /// replay each start of the returned producer receives, then the live events.
    package func replayed(
        through subject: some Subject<Value, Failure>, connecting: ReplayConnection
    ) -> SignalProducer {
        let connection = multicast(subject)
        let keeper = ReplayKeeper(connection)
        if connecting == .now { keeper.connect() }
        return SignalProducer { observer, lifetime in
            // Each start holds the keeper, so the source lives as long as a start or the producer does.
            lifetime.observeEnded { withExtendedLifetime(keeper) {} }
            connection.signal.observe(observer, during: lifetime)
            if connecting == .onFirstStart { keeper.connect() }
        }
    }
}

extension Signal {
    /// Starts keeping this signal's values now and returns a producer whose every start receives the
    /// values kept so far (all of them by default), then the live events and the terminal event, if any.
    ///
    /// The signal is observed until it terminates, or until the returned producer and all its starts
    /// are gone.
    public func replay(upTo capacity: ReplayCapacity = .unlimited) -> SignalProducer<Value, Failure> {
        SignalProducer(self).replayed(capacity: capacity, lazily: false)
    }

    /// Like `replay()`, keeping only the latest value.
    public func replayLast() -> SignalProducer<Value, Failure> {
        SignalProducer(self).replayed(capacity: .last, lazily: false)
    }
}

/// Owns the connection of a replaying producer: disconnects it when the last reference goes away.
///
/// Thread-safe: `connect()` may race itself; the connection connects once.
private final class ReplayKeeper<Value: Sendable, Failure: Error>: Sendable {
    private let connection: MulticastConnection<Value, Failure>
    private let disposable = Mutex<(any Disposable)?>(nil)

    init(_ connection: MulticastConnection<Value, Failure>) {
        self.connection = connection
    }

    func connect() {
        guard disposable.withLock({ $0 == nil }) else { return }
        let connected = connection.connect()
        disposable.withLock { $0 = connected }
    }

    deinit { disposable.withLock { $0 }?.dispose() }
}
