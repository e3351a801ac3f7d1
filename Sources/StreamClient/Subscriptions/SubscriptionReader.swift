import Reactive
import Synchronization

/// One subscription read by a consuming task: its events wait in a buffer until `next()` takes them,
/// and a `ConsumerDemand` grants the daemon credit only for what was taken, so the buffer holds at most
/// the demand's window.
///
/// The subscription starts on the first `next()`. It ends (and the daemon is told) when the stream ends,
/// when the consuming task is cancelled, on `cancel()`, or when the reader is dropped.
///
/// Thread-safety: Sendable; the buffer and the waiting consumer sit under a mutex, and the consumer is
/// resumed outside it. `next()` is called by one task at a time.
final class SubscriptionReader: Sendable {
    private typealias Answer = Result<StoredEvent?, StreamClientError>

    private struct State {
        var started = false
        var buffer: [StoredEvent] = []
        var head = 0
        /// Set once the subscription ended: nil for a normal end, else the failure still to be thrown.
        var end: StreamClientError??
        var waiter: CheckedContinuation<Answer, Never>?
    }

    private let events: SignalProducer<StoredEvent, StreamClientError>
    /// The credit window shared with the subscription.
    let demand: ConsumerDemand
    private let start = SerialDisposable()
    private let state = Mutex(State())

    /// A reader of `events`, a subscription opened with `demand`.
    init(events: SignalProducer<StoredEvent, StreamClientError>, demand: ConsumerDemand) {
        self.events = events
        self.demand = demand
    }

    deinit { start.dispose() }

    /// The next event; nil at the end, after a cancellation, and after a failure was thrown once.
    func next() async throws(StreamClientError) -> StoredEvent? {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started && state.end == nil
        }
        if first { start.inner = events.start { [weak self] event in self?.take(event) } }
        // Most calls find an event buffered: answer those without suspending.
        if let ready = poll(waiter: nil) { return try ready.get() }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if let ready = poll(waiter: continuation) { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try answer.get()
    }

    /// Ends the read now: what is buffered is dropped, the daemon is told, and `next()` returns nil.
    func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            state.buffer = []
            state.head = 0
            state.end = .some(nil)
            defer { state.waiter = nil }
            return state.waiter
        }
        start.dispose()
        waiter?.resume(returning: .success(nil))
    }

    /// The buffered event (counting it as taken), or the end; nil when the consumer must wait, in which
    /// case `waiter` (if any) is kept to be resumed.
    private func poll(waiter: CheckedContinuation<Answer, Never>?) -> Answer? {
        let answer = state.withLock { state -> Answer? in
            if state.head < state.buffer.count { return .success(Self.takeOne(&state)) }
            if let end = state.end {
                // A failure is thrown once; the sequence then ends.
                state.end = .some(nil)
                return end.map { .failure($0) } ?? .success(nil)
            }
            if let waiter { state.waiter = waiter }
            return nil
        }
        if case .success(.some) = answer { demand.consumed() }
        return answer
    }

    private static func takeOne(_ state: inout State) -> StoredEvent {
        let event = state.buffer[state.head]
        state.head += 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return event
    }

    /// Files what the subscription sent: an event into the buffer (or straight to a waiting
    /// consumer), or the end.
    private func take(_ event: Event<StoredEvent, StreamClientError>) {
        switch event {
        case let .value(received):
            let handOff = state.withLock { state -> CheckedContinuation<Answer, Never>? in
                guard state.end == nil else { return nil }
                state.buffer.append(received)
                guard let waiter = state.waiter else { return nil }
                state.waiter = nil
                return waiter
            }
            if let handOff, let ready = poll(waiter: nil) { handOff.resume(returning: ready) }
        case let .failed(error): finish(error)
        case .completed, .interrupted: finish(nil)
        }
    }

    /// Ends the subscription: the consumer gets what is buffered, then nil (or `error`).
    private func finish(_ error: StreamClientError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            guard state.head >= state.buffer.count, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        start.dispose()
        if let waiter, let ready = poll(waiter: nil) { waiter.resume(returning: ready) }
    }
}
