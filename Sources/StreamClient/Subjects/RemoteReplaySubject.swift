import Dispatch
import NIOPosix
import Reactive
import StreamProtocol
import Synchronization

/// A replay subject backed by a named stream in `streamd`: the remote twin of `PersistentReplaySubject`,
/// so that sharing a stream between processes is a one-line change of the constructor.
///
/// - Writing: `send(value:)` publishes the encoded value (publishes from one thread keep their order);
///   `append(_:)` does the same and returns once the daemon has stored it and, if the subject is being
///   read (its subscription is open), once the mirror has delivered it to every observer (read your
///   writes; the wait suspends the task and blocks no thread). A publish the daemon refuses
///   fails the subject's observers with a `StreamFailure` of origin `.storage`, since the value is lost.
///   `sendCompleted()` / `send(error:)` store the stream's end in the daemon, after the values sent
///   before them, and every observer, in any process, ends when it reaches it; `sendInterrupted()`
///   ends this process's observers only (after the values published before it have come back).
/// - Reading: the first read of `signal` (observing the subject, or its `producer`, reads it) creates the
///   stream if it is missing and opens one subscription in the daemon from `replay`; its values feed a local `ReplaySubject` of
///   `localCapacity`, and every observer gets what that keeps (with the default `.unlimited`: everything
///   from `replay` on) and then the live values, in sequence order, each once, including values
///   published by other processes. Memory grows with the values kept: bound it with `localCapacity`,
///   or use `independentProducer`, whose every start is its own subscription replayed by the daemon.
/// - The first read of `signal` waits until the mirror has received the stream's history up to its last
///   sequence at that moment (or the subscription ended), so a start after `append` replays the value
///   before it returns. It blocks the reading thread for that round trip, except on an event-loop
///   thread (inside an observer callback, say), where it never waits: there the history arrives after.
/// - Failures: a stored failure arrives as `StreamFailure(message)`; connection and decoding errors as
///   origin `.storage`.
///
/// Thread-safety: every member may be called from any thread; events are delivered as a
/// `ReplaySubject`'s are, from the connection's event-loop thread.
public final class RemoteReplaySubject<Value: Codable & Sendable>: Subject {
    /// Failures cross the process boundary as messages.
    public typealias Failure = StreamFailure

    /// The connection the stream is reached through.
    public let connection: StreamConnection
    /// The stream's name.
    public let stream: String
    /// The stream's policy if this subject creates it.
    public let policy: StreamPolicy
    /// Where each observer's replay starts.
    public let replay: StartPosition
    /// How values are encoded in the stream.
    public let codec: any EventCodec

    /// What the local mirror keeps for new observers.
    public let localCapacity: ReplayCapacity

    /// Holds an interruption sent to the subject until the mirror has received every value published
    /// before it, so `sendInterrupted()` right after `send(value:)` does not cut those values off.
    private struct Ordering {
        var feed: (any Disposable)?
        var feedOpened = false
        var unacknowledged = 0
        var lastAcknowledged: UInt64 = 0
        var lastMirrored: UInt64 = 0
        var pendingInterruption: Event<Value, StreamFailure>?
        /// The subscription's first sequence (its `SUBSCRIBED` reply); nil until it arrives.
        var feedStart: UInt64?
        /// The subscription ended (or could not open): the mirror will get nothing more.
        var feedEnded = false
        /// Who waits for the mirror to deliver a sequence.
        var waiters: [(sequence: UInt64, wake: @Sendable () -> Void)] = []
        /// The mirror has the history the subscription found when it opened (or never will).
        var historyArrived = false
        /// Reads of `signal` waiting for that.
        var historyWaiters: [@Sendable () -> Void] = []

        /// Whether the mirror has delivered everything through `sequence` it ever will.
        func hasMirrored(_ sequence: UInt64) -> Bool {
            guard let feedStart else { return feedEnded }
            return feedEnded || sequence < feedStart || lastMirrored >= sequence
        }

        /// Removes and returns the waiters whose sequence has been mirrored.
        mutating func takeSatisfied() -> [@Sendable () -> Void] {
            let waiting = waiters
            waiters = waiting.filter { !hasMirrored($0.sequence) }
            return waiting.filter { hasMirrored($0.sequence) }.map(\.wake)
        }
    }

    private let mirror: ReplaySubject<Value, StreamFailure>
    private let ordering = Mutex(Ordering())

    /// A subject over `stream` in the daemon behind `connection`, with the parameters of
    /// `PersistentReplaySubject`'s init (the stream is created with `policy` by the first read, or by
    /// the first publish with the daemon's default policy, if it is missing).
    ///
    /// - Parameters:
    ///   - connection: the connection to the daemon the stream lives in.
    ///   - stream: the stream's name.
    ///   - policy: the stream's policy if it is created by this subject's first read (an existing
    ///     stream keeps its own).
    ///   - replay: where each observer's replay starts; the stream's replay policy by default.
    ///   - codec: how values are stored; JSON by default, like `PersistentReplaySubject`.
    ///   - localCapacity: how many received values the local mirror keeps for new observers.
    public init(
        connection: StreamConnection, stream: String, policy: StreamPolicy = StreamPolicy(),
        replay: StartPosition = .streamDefault, codec: any EventCodec = JSONEventCodec(),
        localCapacity: ReplayCapacity = .unlimited
    ) {
        self.connection = connection
        self.stream = stream
        self.policy = policy
        self.replay = replay
        self.codec = codec
        self.localCapacity = localCapacity
        mirror = ReplaySubject(capacity: localCapacity)
    }

    deinit {
        ordering.withLock { $0.feed }?.dispose()
    }

    /// The stream's values as this subject mirrors them: what the mirror keeps, then live; see the type's notes.
    public var signal: Signal<Value, StreamFailure> {
        let (opening, arrived) = ordering.withLock { ordering -> (Bool, Bool) in
            guard !ordering.feedOpened else { return (false, ordering.historyArrived) }
            ordering.feedOpened = true
            return (true, false)
        }
        if !opening, !arrived { waitForHistory() }
        if opening {
            ensureStream()
            let (mirror, stream, codec) = (mirror, stream, codec)
            let subscribed: @Sendable (UInt64) -> Void = { [weak self] next in
                self?.wake { $0.feedStart = next }
            }
            let started = connection.subscription(stream, from: replay, credit: StreamConnection.defaultCredit, subscribed: subscribed)
                .start { [weak self] event in
                    Self.forward(event, stream: stream, codec: codec, to: mirror.input)
                    if let sequence = event.value?.sequence {
                        self?.wake { $0.lastMirrored = sequence }
                        self?.releaseInterruptionIfDue()
                    } else {
                        self?.wake { $0.feedEnded = true }
                    }
                }
            ordering.withLock { $0.feed = started }
            // The daemon answers a connection's requests in order: the info comes after SUBSCRIBE took
            // effect, and its last sequence bounds the history that subscription found.
            connection.send(.getStreamInfo(name: stream)) { [weak self] reply in
                guard let self else { return }
                guard case let .success(.streamInfo(info)) = reply else { return historyArrived() }
                wait(for: info.lastSequence) { [weak self] in self?.historyArrived() }
            }
            waitForHistory()
        }
        return mirror.signal
    }

    /// Waits until the mirror has received the history the subscription found when it opened. Never
    /// waits on an event-loop thread, whose loop may be the one that must deliver it.
    private func waitForHistory() {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else { return }
        let arrived = DispatchSemaphore(value: 0)
        let now = ordering.withLock { ordering -> Bool in
            guard !ordering.historyArrived else { return true }
            ordering.historyWaiters.append { arrived.signal() }
            return false
        }
        if !now { arrived.wait() }
    }

    /// Marks the history as arrived and lets the reads waiting for it go on.
    private func historyArrived() {
        let woken = ordering.withLock { ordering in
            ordering.historyArrived = true
            defer { ordering.historyWaiters = [] }
            return ordering.historyWaiters
        }
        for wake in woken { wake() }
    }

    /// Calls `wake` once the mirror has delivered `sequence` (at once if it has).
    private func wait(for sequence: UInt64, wake: @escaping @Sendable () -> Void) {
        let now = ordering.withLock { ordering -> Bool in
            guard !ordering.hasMirrored(sequence) else { return true }
            ordering.waiters.append((sequence, wake))
            return false
        }
        if now { wake() }
    }

    /// Applies `change` and wakes the waiters it satisfies, outside the lock.
    private func wake(after change: (inout Ordering) -> Void) {
        let woken = ordering.withLock { ordering in
            change(&ordering)
            return ordering.takeSatisfied()
        }
        for wake in woken { wake() }
    }

    /// A producer whose every start opens its own subscription in the daemon, replayed from `replay`
    /// there: no local memory, however long the history.
    public var independentProducer: SignalProducer<Value, StreamFailure> {
        let stream = stream
        let codec = codec
        let events = connection.subscribe(stream, from: replay)
        return SignalProducer { [self] observer, lifetime in
            ensureStream()
            lifetime += events.start { event in Self.forward(event, stream: stream, codec: codec, to: observer) }
        }
    }

    /// Creates the stream with `policy` if it is missing, like `PersistentReplaySubject`'s init, so
    /// observing before the first publish works. Not awaited: the daemon answers a connection's
    /// requests in order, so a `SUBSCRIBE` sent after it finds the stream; an existing stream (whatever
    /// its policy) is left as it is.
    private func ensureStream() {
        connection.send(.createStream(name: stream, policy: policy))
    }

    /// Decodes one subscription event into the subject's terms.
    private static func forward(
        _ event: Event<StoredEvent, StreamClientError>, stream: String, codec: any EventCodec,
        to observer: Observer<Value, StreamFailure>
    ) {
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

    /// Appends `value` and returns once the daemon has stored it and, if the subject's subscription is
    /// open, the mirror has delivered it to every observer (or the subscription has ended). The wait
    /// suspends the task; it goes on after a cancellation of the task until the value arrives.
    @discardableResult
    public func append(_ value: Value) async throws -> AppendReceipt {
        let receipt = try await connection.append(value: value, to: stream, codec: codec)
        guard ordering.withLock({ $0.feedOpened }) else { return receipt }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            wait(for: receipt.lastSequence) { continuation.resume() }
        }
        return receipt
    }

    /// Publishes a value, the stream's completion or its failure without waiting: observers everywhere
    /// receive it when it comes back from the daemon. An interruption is not stored: it ends only this
    /// process's observers, after the values sent before it.
    public func send(_ event: Event<Value, StreamFailure>) {
        switch event {
        case .value: break
        case .completed: return endStream(failure: nil)
        case let .failed(failure): return endStream(failure: failure.message)
        case .interrupted:
            ordering.withLock { if $0.pendingInterruption == nil { $0.pendingInterruption = event } }
            releaseInterruptionIfDue()
            return
        }
        guard let value = event.value else { return }
        let payload: [UInt8]
        do {
            payload = try codec.encode(value)
        } catch {
            failShared(StreamFailure(origin: .storage, message: "cannot encode \(Value.self): \(error)"))
            return
        }
        ordering.withLock { $0.unacknowledged += 1 }
        connection.send(.publish(.init(stream: stream, payload: payload))) { [weak self] reply in
            self?.ordering.withLock { ordering in
                ordering.unacknowledged -= 1
                if case let .success(.published(sequence, _, _)) = reply {
                    ordering.lastAcknowledged = max(ordering.lastAcknowledged, sequence)
                }
            }
            switch reply {
            case .success(.published): self?.releaseInterruptionIfDue()
            case let .success(other): self?.failShared(StreamFailure(origin: .storage, message: "the daemon refused a publish: \(other)"))
            case let .failure(error): self?.failShared(StreamFailure(storage: error))
            }
        }
    }

    private func failShared(_ failure: StreamFailure) {
        mirror.send(error: failure)
    }

    /// Stores the stream's end in the daemon, after the values sent before it (the daemon answers a
    /// connection's requests in order); a refusal (the stream had ended already, say) fails this
    /// process's observers with it.
    private func endStream(failure: String?) {
        connection.send(.endStream(stream: stream, failure: failure, expectedLastSequence: nil)) { [weak self] reply in
            switch reply {
            case .success(.published): break
            case let .success(other): self?.failShared(StreamFailure(origin: .storage, message: "the daemon refused to end the stream: \(other)"))
            case let .failure(error): self?.failShared(StreamFailure(storage: error))
            }
        }
    }

    /// Sends a held interruption once nothing published before it is still on its way.
    private func releaseInterruptionIfDue() {
        let interruption = ordering.withLock { ordering -> Event<Value, StreamFailure>? in
            guard let interruption = ordering.pendingInterruption, ordering.unacknowledged == 0,
                  !ordering.feedOpened || ordering.lastMirrored >= ordering.lastAcknowledged
            else { return nil }
            ordering.pendingInterruption = nil
            return interruption
        }
        if let interruption { mirror.send(interruption) }
    }
}
