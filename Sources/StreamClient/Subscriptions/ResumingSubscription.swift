import Reactive
import StreamProtocol
import Synchronization

/// A subscription that survives the daemon restarting: on a lost connection it reconnects to the same
/// socket and subscribes again from the sequence after the last one it delivered.
///
/// Backoff starts at 50 ms and doubles up to 1 s, for at most `maximumAttempts` tries per loss; when they
/// are used up the subscription fails with the last connection error. Connections it makes itself are
/// closed when the subscription ends.
///
/// Thread-safety: Sendable; its state is under a mutex.
final class ResumingSubscription: Sendable {
    /// Reconnection tries after each loss before giving up.
    static let maximumAttempts = 40

    private struct State {
        var lastSequence: UInt64?
        var owned: StreamConnection?
        var reconnecting: Task<Void, Never>?
    }

    private let socketPath: String
    private let stream: String
    private let start: StartPosition
    private let credit: UInt32
    private let observer: Observer<ReceivedEvent, StreamClientError>
    private let lifetime: Lifetime
    private let current = SerialDisposable()
    private let state = Mutex(State())

    private init(
        socketPath: String, stream: String, start: StartPosition, credit: UInt32,
        observer: Observer<ReceivedEvent, StreamClientError>, lifetime: Lifetime
    ) {
        self.socketPath = socketPath
        self.stream = stream
        self.start = start
        self.credit = credit
        self.observer = observer
        self.lifetime = lifetime
    }

    static func producer(connection: StreamConnection, stream: String, start: StartPosition, credit: UInt32) -> SignalProducer<ReceivedEvent, StreamClientError> {
        SignalProducer { observer, lifetime in
            let subscription = ResumingSubscription(
                socketPath: connection.socketPath, stream: stream, start: start, credit: credit,
                observer: observer, lifetime: lifetime)
            lifetime += subscription.current
            lifetime.observeEnded { subscription.end() }
            subscription.subscribe(on: connection)
        }
    }

    private func subscribe(on connection: StreamConnection) {
        let position = state.withLock { $0.lastSequence }.map { StartPosition.fromSequence($0 + 1) } ?? start
        current.inner = connection.subscribe(stream, from: position, credit: credit).start { [self] event in
            switch event {
            case let .value(received):
                state.withLock { $0.lastSequence = received.sequence }
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
            var delay: Duration = .milliseconds(50)
            var lastError = error
            for _ in 0..<Self.maximumAttempts {
                try? await Task.sleep(for: delay)
                if Task.isCancelled || lifetime.hasEnded { return }
                do {
                    let connection = try await StreamConnection.connect(socketPath: socketPath)
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
                delay = min(delay * 2, .seconds(1))
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
