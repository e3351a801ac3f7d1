import StreamProtocol
import Synchronization

/// One bounded read of a stream under consumer-driven credit: the subscription's events wait in a
/// buffer of at most `credit` events until `next()` takes them, and only what was taken is granted again.
///
/// Thread-safety: Sendable; the buffer and the waiting consumer sit under a mutex, and the consumer is
/// resumed outside it. `next()` is called by one task at a time.
final class HistoryReader: Sendable {
    private enum Phase {
        case idle
        case open(subscriptionID: UInt32, end: UInt64)
        case finished(StreamClientError?)
    }

    private struct State {
        var phase = Phase.idle
        var buffer: [StoredEvent] = []
        var head = 0
        var taken: UInt32 = 0
        var waiter: CheckedContinuation<Answer, Never>?
    }

    private typealias Answer = Result<StoredEvent?, StreamClientError>

    private let connection: StreamConnection
    private let stream: String
    private let start: StartPosition
    private let credit: UInt32
    private let state = Mutex(State())

    init(connection: StreamConnection, stream: String, start: StartPosition, credit: UInt32) {
        self.connection = connection
        self.stream = stream
        self.start = start
        self.credit = credit
    }

    deinit { unsubscribe() }

    /// The next event, nil at the end (and after a cancellation); opens the subscription on the first call.
    func next() async throws(StreamClientError) -> StoredEvent? {
        if case .idle = state.withLock({ $0.phase }) { await open() }
        // Most calls find an event buffered: answer those without suspending.
        if let ready = poll(waiter: nil) { return try ready.get() }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let ready = poll(waiter: continuation) { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish(nil)
        }
        return try answer.get()
    }

    /// The buffered event (granting credit as it goes), or the end; nil when the consumer must wait,
    /// in which case `waiter` (if any) is kept to be resumed.
    private func poll(waiter: CheckedContinuation<Answer, Never>?) -> Answer? {
        let (answer, grant) = state.withLock { state -> (Answer?, Grant?) in
            if state.head < state.buffer.count {
                let event = state.buffer[state.head]
                state.head += 1
                if state.head == state.buffer.count {
                    state.buffer.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return (.success(event), Self.tookOne(&state, credit: credit))
            }
            if case let .finished(error) = state.phase {
                return (error.map { .failure($0) } ?? .success(nil), nil)
            }
            if let waiter { state.waiter = waiter }
            return (nil, nil)
        }
        if let grant { connection.send(.credit(subscriptionID: grant.id, credit: grant.count)) }
        return answer
    }

    private typealias Grant = (id: UInt32, count: UInt32)

    /// Counts one event taken by the consumer; once half the credit was taken, that much is granted again.
    private static func tookOne(_ state: inout State, credit: UInt32) -> Grant? {
        state.taken += 1
        guard case let .open(id, _) = state.phase, state.taken >= credit / 2 else { return nil }
        defer { state.taken = 0 }
        return (id, state.taken)
    }

    private func open() async {
        let end: UInt64
        do {
            end = try await connection.streamInfo(stream).lastSequence
        } catch {
            finish(error as? StreamClientError ?? .connectionClosed("\(error)"))
            return
        }
        guard end > 0 else { return finish(nil) }
        let registered = connection.router.addSubscription { [weak self] feed in self?.take(feed) }
        let id: UInt32
        switch registered {
        case let .success(value): id = value
        case let .failure(error): return finish(error)
        }
        let opened = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .open(subscriptionID: id, end: end)
            return true
        }
        guard opened else {
            connection.router.removeSubscription(id)
            return
        }
        let subscribe = ClientMessage.Subscribe(subscriptionID: id, stream: stream, start: start, credit: credit)
        connection.send(.subscribe(subscribe)) { [weak self] reply in
            switch reply {
            case let .success(.subscribed(_, next)): if next > end { self?.finish(nil) }
            case let .success(.error(code, message)): self?.finish(StreamClientError.server(code: code, message: message))
            case let .success(other): self?.finish(StreamClientError.protocolViolation("expected SUBSCRIBED, got \(other)"))
            case let .failure(error): self?.finish(error)
            }
        }
    }

    /// Files what the subscription heard: events into the buffer (up to the end), or the end itself.
    private func take(_ feed: SubscriptionFeed) {
        switch feed {
        case let .events(events):
            var ending: StreamClientError??
            let handOff = state.withLock { state -> (CheckedContinuation<Answer, Never>, StoredEvent, Grant?)? in
                guard case let .open(_, end) = state.phase else { return nil }
                for event in events {
                    switch event.kind {
                    case .value:
                        if event.sequence <= end {
                            state.buffer.append(StoredEvent(sequence: event.sequence, timestamp: event.timestamp, payload: event.payload))
                        }
                        if event.sequence >= end { ending = .some(nil) }
                    case .completed: ending = .some(nil)
                    case .failed: ending = .some(StreamClientError.streamFailed(String(decoding: event.payload, as: UTF8.self)))
                    }
                    if ending != nil { break }
                }
                guard let waiter = state.waiter, state.head < state.buffer.count else { return nil }
                state.waiter = nil
                let event = state.buffer[state.head]
                state.head += 1
                return (waiter, event, Self.tookOne(&state, credit: credit))
            }
            if let (waiter, event, grant) = handOff {
                if let grant { connection.send(.credit(subscriptionID: grant.id, credit: grant.count)) }
                waiter.resume(returning: .success(event))
            }
            if let ending { finish(ending) }
        case let .ended(reason, message):
            finish(reason == .unsubscribed ? nil : StreamClientError.subscriptionEnded(reason: reason, message: message))
        case let .failed(error):
            finish(error)
        case .deliveries:
            finish(StreamClientError.protocolViolation("the daemon sent DELIVERIES to a history read, which is no consumer's member"))
        }
    }

    /// Ends the read: the consumer gets what is buffered, then nil (or `error`); the daemon is told.
    private func finish(_ error: StreamClientError?) {
        let (waiter, id) = state.withLock { state -> (CheckedContinuation<Answer, Never>?, UInt32?) in
            var id: UInt32?
            switch state.phase {
            case .finished: return (nil, nil)
            case let .open(subscriptionID, _): id = subscriptionID
            case .idle: break
            }
            state.phase = .finished(error)
            guard state.head >= state.buffer.count, let waiter = state.waiter else { return (nil, id) }
            state.waiter = nil
            return (waiter, id)
        }
        if let id, connection.router.removeSubscription(id) { connection.send(.unsubscribe(subscriptionID: id)) }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    private func unsubscribe() {
        let id = state.withLock { state -> UInt32? in
            guard case let .open(id, _) = state.phase else { return nil }
            return id
        }
        if let id, connection.router.removeSubscription(id) { connection.send(.unsubscribe(subscriptionID: id)) }
    }
}
