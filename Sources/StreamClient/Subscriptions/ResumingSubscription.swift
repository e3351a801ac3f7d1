import Reactive
import StreamProtocol
import Synchronization

/// A subscription that survives the daemon restarting: on a lost connection it reconnects to the same
/// socket and subscribes again from the sequence after the last one it delivered.
///
/// Reconnection follows a `ReconnectPolicy`; when its tries are used up the subscription fails with the
/// last connection error. Before any event was delivered, it resumes at the `next_sequence` the first
/// `SUBSCRIBED` promised, so even a `.newOnly` start misses nothing published while it was away.
/// Connections it makes itself are closed when the subscription ends.
///
/// Thread-safety: Sendable; its state is under a mutex.
final class ResumingSubscription: Sendable {
    private struct State {
        /// The sequence to resume at: after the last delivered, or the first one promised.
        var resumeAt: UInt64?
        var owned: StreamConnection?
        var reconnecting: Task<Void, Never>?
    }

    private let socketPath: String
    private let trustedDaemonUser: UInt32?
    private let stream: String
    private let start: StartPosition
    private let credit: UInt32
    private let demand: ConsumerDemand?
    private let policy: ReconnectPolicy
    private let observer: Observer<StoredEvent, StreamClientError>
    private let lifetime: Lifetime
    private let current = SerialDisposable()
    private let state = Mutex(State())

    private init(
        socketPath: String, trustedDaemonUser: UInt32?, stream: String, start: StartPosition, policy: ReconnectPolicy,
        credit: UInt32, demand: ConsumerDemand?, observer: Observer<StoredEvent, StreamClientError>, lifetime: Lifetime
    ) {
        self.socketPath = socketPath
        self.trustedDaemonUser = trustedDaemonUser
        self.stream = stream
        self.start = start
        self.credit = credit
        self.demand = demand
        self.policy = policy
        self.observer = observer
        self.lifetime = lifetime
    }

    static func producer(
        connection: StreamConnection, stream: String, start: StartPosition, policy: ReconnectPolicy, credit: UInt32,
        demand: ConsumerDemand? = nil
    ) -> SignalProducer<StoredEvent, StreamClientError> {
        SignalProducer { observer, lifetime in
            let subscription = ResumingSubscription(
                socketPath: connection.socketPath, trustedDaemonUser: connection.trustedDaemonUser, stream: stream, start: start, policy: policy, credit: credit,
                demand: demand, observer: observer, lifetime: lifetime)
            lifetime += subscription.current
            lifetime.observeEnded { subscription.end() }
            subscription.subscribe(on: connection)
        }
    }

    private func subscribe(on connection: StreamConnection) {
        let position = state.withLock { $0.resumeAt }.map { StartPosition.from(sequence: $0) } ?? start
        let subscribed: @Sendable (UInt64) -> Void = { [self] next in
            if next > 0 { state.withLock { if $0.resumeAt == nil { $0.resumeAt = next } } }
        }
        current.inner = connection.subscription(stream, from: position, credit: credit, demand: demand, subscribed: subscribed).start { [self] event in
            switch event {
            case let .value(received):
                state.withLock { $0.resumeAt = received.sequence + 1 }
                observer.send(value: received)
            case let .failed(error) where error.isConnectionLoss:
                reconnect(after: error)
            case let .failed(error): observer.send(error: error)
            case .completed: observer.sendCompleted()
            case .interrupted: break
            }
        }
    }

    private func reconnect(after error: StreamClientError) {
        guard !lifetime.hasEnded else { return }
        let task = Task { [self] in
            var delay = policy.initialDelay
            var lastError = error
            for _ in 0..<max(policy.maximumAttempts, 0) {
                try? await Task.sleep(for: delay)
                if Task.isCancelled || lifetime.hasEnded { return }
                do {
                    let connection = try await StreamConnection.connect(socketPath: socketPath, trustedDaemonUser: trustedDaemonUser)
                    let previous = state.withLock { state in
                        defer { state.owned = connection }
                        return state.owned
                    }
                    previous?.close()
                    if lifetime.hasEnded { return connection.close() }
                    subscribe(on: connection)
                    return
                } catch {
                    lastError = error as? StreamClientError ?? .connectionClosed("\(error)")
                }
                delay = min(delay * 2, policy.maximumDelay)
            }
            observer.send(error: lastError)
        }
        state.withLock { $0.reconnecting = task }
    }

    private func end() {
        let (owned, task) = state.withLock { state in
            defer {
                state.owned = nil
                state.reconnecting = nil
            }
            return (state.owned, state.reconnecting)
        }
        task?.cancel()
        owned?.close()
    }
}
