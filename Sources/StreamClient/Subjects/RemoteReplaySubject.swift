import EventLog
import Reactive
import StreamProtocol
import Synchronization

/// A replay subject backed by a named stream in `streamd`: the remote twin of `PersistentReplaySubject`,
/// so that sharing a stream between processes is a one-line change of the constructor.
///
/// - Writing: `send(value:)` publishes the encoded value (publishes from one thread keep their order);
///   `publish(_:)` does the same and returns once the daemon has stored it. A publish the daemon refuses
///   fails the shared `signal` with a `StreamFailure` of origin `.storage`. Protocol version 1 cannot
///   store a terminal event, so `sendCompleted()` / `send(error:)` / `sendInterrupted()` end only the
///   shared `signal` of this subject, in this process.
/// - Reading, per observer: `observe(_:)`, `observeValues(_:)` and `producer` (on this type) open one
///   subscription per observer, from `replay`: each observer gets the retained history, then the live
///   values, in sequence order, each once, like a `PersistentReplaySubject`'s.
/// - Reading, shared: `signal` is one hot signal fed by a single subscription from `replay`, opened when
///   `signal` is first read; observers see what arrives after they attach (a first observer attached in
///   the same statement sees the history, which only arrives after the subscription's round trip, but
///   that is a race, not a promise). Generic code that only knows `Subject` observes through `signal`.
/// - Failures: a stored failure arrives as `StreamFailure(message)`; connection and decoding errors as
///   origin `.storage`.
///
/// Thread-safety: every member may be called from any thread; events are delivered on the connection's
/// event-loop thread, serialized per observer.
public final class RemoteReplaySubject<Value: Codable & Sendable>: Subject {
    /// Failures cross the process boundary as messages.
    public typealias Failure = StreamFailure

    /// The connection the stream is reached through.
    public let connection: StreamConnection
    /// The stream's name.
    public let stream: String
    /// Where each observer's replay starts.
    public let replay: StartPosition
    /// How values are encoded in the stream.
    public let codec: any EventCodec

    private struct Shared {
        var signal: Signal<Value, StreamFailure>?
        var input: Observer<Value, StreamFailure>?
        var subscription: (any Disposable)?
    }

    private let shared = Mutex(Shared())

    /// A subject over `stream` in the daemon behind `connection` (the stream is created by the first publish).
    ///
    /// - Parameters:
    ///   - replay: where each observer's replay starts; the stream's replay policy by default.
    ///   - codec: how values are stored; JSON by default, like `PersistentReplaySubject`.
    public init(connection: StreamConnection, stream: String, replay: StartPosition = .streamDefault, codec: any EventCodec = JSONEventCodec()) {
        self.connection = connection
        self.stream = stream
        self.replay = replay
        self.codec = codec
    }

    deinit {
        shared.withLock { $0.subscription }?.dispose()
    }

    /// One shared subscription of the stream from `replay`, opened at the first read; see the type's notes.
    public var signal: Signal<Value, StreamFailure> {
        let (signal, created) = shared.withLock { shared -> (Signal<Value, StreamFailure>, Bool) in
            if let signal = shared.signal { return (signal, false) }
            let (signal, input) = Signal<Value, StreamFailure>.pipe()
            shared.signal = signal
            shared.input = input
            return (signal, true)
        }
        if created {
            let input = shared.withLock { $0.input }
            let subscription = producer.start(input ?? Observer { _ in })
            shared.withLock { $0.subscription = subscription }
        }
        return signal
    }

    /// A producer whose every start replays the stream from `replay`, then follows it live.
    public var producer: SignalProducer<Value, StreamFailure> {
        let stream = stream
        let codec = codec
        let events = connection.subscribe(stream, from: replay)
        return SignalProducer { observer, lifetime in
            lifetime += events.start { event in
                switch event {
                case let .value(received):
                    do {
                        observer.send(value: try codec.decode(Value.self, from: received.payload))
                    } catch {
                        observer.send(error: StreamFailure(
                            origin: .storage, message: "event \(received.sequence) of \(stream) is not a \(Value.self): \(error)"))
                    }
                case let .failed(.streamFailed(message)): observer.send(error: StreamFailure(message))
                case let .failed(error): observer.send(error: StreamFailure(storage: error))
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }

    /// Attaches `observer` with its own replay (history, then live); disposing detaches it.
    @discardableResult
    public func observe(_ observer: Observer<Value, StreamFailure>) -> any Disposable {
        producer.start(observer)
    }

    /// Attaches a function of events with its own replay; see `observe(_:)`.
    @discardableResult
    public func observe(_ action: @escaping @Sendable (Event<Value, StreamFailure>) -> Void) -> any Disposable {
        producer.start(action)
    }

    /// Attaches a function of values with its own replay; see `observe(_:)`.
    @discardableResult
    public func observeValues(_ action: @escaping @Sendable (Value) -> Void) -> any Disposable {
        producer.startWithValues(action)
    }

    /// Publishes `value` and returns once the daemon has stored it.
    @discardableResult
    public func publish(_ value: Value) async throws -> Published {
        try await connection.publish(value, to: stream, codec: codec)
    }

    /// Publishes a value without waiting; ends the shared `signal` on a terminal event (see the type's notes).
    public func send(_ event: Event<Value, StreamFailure>) {
        guard let value = event.value else {
            shared.withLock { $0.input }?.send(event)
            return
        }
        let payload: [UInt8]
        do {
            payload = try codec.encode(value)
        } catch {
            failShared(StreamFailure(origin: .storage, message: "cannot encode \(Value.self): \(error)"))
            return
        }
        connection.send(.publish(.init(stream: stream, payload: payload))) { [weak self] reply in
            switch reply {
            case .success(.published): break
            case let .success(other): self?.failShared(StreamFailure(origin: .storage, message: "the daemon refused a publish: \(other)"))
            case let .failure(error): self?.failShared(StreamFailure(storage: error))
            }
        }
    }

    private func failShared(_ failure: StreamFailure) {
        shared.withLock { $0.input }?.send(error: failure)
    }
}
