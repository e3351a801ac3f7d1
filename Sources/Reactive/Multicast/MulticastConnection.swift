import Synchronization

/// Shares one start of a producer among many observers: the producer's events are sent into a subject
/// (a `PassthroughSubject`, a `ReplaySubject`, or any other `Subject`) and observers observe the subject.
///
/// Connecting starts the source into the subject; disposing the connection disconnects, which
/// interrupts that start. Disconnecting does not terminate the subject: its observers stay attached and
/// see the events of the next connection, and a replaying subject keeps what it has. Once the source
/// has terminated (completed, failed, or interrupted by itself) the subject has received that terminal
/// event, so connecting again does nothing more.
///
/// Reentrancy is the subject's: an observer may send, observe or dispose from inside its callback and
/// that work runs after the current event has reached every observer (see `Signal`).
///
/// Thread-safety: every member may be called from any thread; concurrent `connect()` calls start the
/// source once.
///
/// ## Example
///
/// ```swift
/// let request = SignalProducer<String, Never>(value: "response")
/// let connection = request.multicast(ReplaySubject(capacity: .unlimited))
/// connection.producer.startWithValues { print("first:", $0) }
/// let running = connection.connect()       // starts the request once, for every observer
/// connection.producer.startWithValues { print("late:", $0) }   // replayed from the subject
/// running.dispose()                        // disconnects; the subject keeps what it has
/// ```
public final class MulticastConnection<Value: Sendable, Failure: Error>: Sendable {
    private let source: SignalProducer<Value, Failure>
    private let subject: any Subject<Value, Failure>
    private let state = ConnectionState()

    /// A connection that will send the events of `source` into `subject`; nothing starts until
    /// `connect()` or a start of `autoconnect()`.
    public init(_ source: SignalProducer<Value, Failure>, subject: some Subject<Value, Failure>) {
        self.source = source
        self.subject = subject
    }

    /// The subject's signal: what observers of the shared start receive.
    public var signal: Signal<Value, Failure> { subject.signal }

    /// A producer whose every start observes the subject, without connecting.
    public var producer: SignalProducer<Value, Failure> { subject.producer }

    /// Starts the source into the subject unless it is already connected.
    ///
    /// - Returns: the disposable of the current connection; calls made while it is connected return the
    ///   same one. Disposing it disconnects; a later call connects again, unless the source terminated.
    @discardableResult
    public func connect() -> any Disposable {
        connect(claimedBy: nil).connection
    }

    /// A producer that keeps the connection up while it has subscribers: the first start connects,
    /// and when the last start is disposed or ends, the connection made that way is disposed.
    ///
    /// A start after that connects again and so restarts the source into the same subject: a late
    /// subscriber sees what the subject shows a new observer (nothing for a passthrough subject, the kept
    /// values for a replaying one), then the new connection's events. A connection made by `connect()`
    /// is never disposed by the subscribers leaving; one made by a subscriber is, even if `connect()`
    /// returned it meanwhile.
    public func autoconnect() -> SignalProducer<Value, Failure> {
        SignalProducer { [self] observer, lifetime in
            lifetime += subject.signal.observe(observer)
            guard !lifetime.hasEnded else { return }
            let subscriber = AnyDisposable()
            acquire(subscriber)
            // Registered after acquiring: if the start has ended meanwhile, this releases at once.
            lifetime += AnyDisposable { [self] in release(subscriber) }
        }
    }

    private func acquire(_ subscriber: AnyDisposable) {
        let isFirst = state.mutex.withLock { state -> Bool in
            state.subscribers.insert(ObjectIdentifier(subscriber))
            return state.subscribers.count == 1
        }
        guard isFirst else { return }
        let (connection, isNew) = connect(claimedBy: subscriber)
        guard isNew else { return }
        // The subscribers may all have left while the connection was being made.
        let orphaned = state.mutex.withLock { state -> Bool in
            guard state.subscribers.isEmpty, state.autoConnection === connection else { return false }
            state.autoConnection = nil
            return true
        }
        if orphaned { connection.dispose() }
    }

    private func release(_ subscriber: AnyDisposable) {
        let connection = state.mutex.withLock { state -> SerialDisposable? in
            guard state.subscribers.remove(ObjectIdentifier(subscriber)) != nil, state.subscribers.isEmpty else {
                return nil
            }
            defer { state.autoConnection = nil }
            return state.autoConnection
        }
        connection?.dispose()
    }

    /// Connects unless connected; when `subscriber` is given and a connection is made, it belongs to
    /// the autoconnecting subscribers.
    private func connect(claimedBy subscriber: AnyDisposable?) -> (connection: SerialDisposable, isNew: Bool) {
        let connection = SerialDisposable()
        let current = state.mutex.withLock { state -> SerialDisposable? in
            if let current = state.connection, !current.isDisposed || state.sourceTerminated { return current }
            state.connection = connection
            if subscriber != nil { state.autoConnection = connection }
            return nil
        }
        if let current { return (current, false) }
        let subject = subject
        let state = state
        connection.inner = source.start { event in
            if event.isTerminating {
                // The interruption caused by disconnecting is not the source's: the subject stays open.
                if case .interrupted = event, connection.isDisposed { return }
                state.mutex.withLock { $0.sourceTerminated = true }
            }
            subject.send(event)
        }
        return (connection, true)
    }
}

/// The mutable part of a `MulticastConnection`, in its own object so that the running source refers
/// to it and not to the connection.
///
/// Thread-safe: every access goes through the mutex.
private final class ConnectionState: Sendable {
    struct State {
        var connection: SerialDisposable?
        var autoConnection: SerialDisposable?
        var subscribers: Set<ObjectIdentifier> = []
        var sourceTerminated = false
    }

    let mutex = Mutex(State())
}
