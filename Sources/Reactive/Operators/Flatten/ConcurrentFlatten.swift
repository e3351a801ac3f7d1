import Synchronization

/// The engine of `.merge`, `.concat` and `.concurrent(limit:)`: runs up to `limit` inner producers at
/// once and queues the rest in arrival order.
///
/// Inner producers are started through a `SerialGate` used as a trampoline: an inner producer that
/// completes synchronously while being started only queues the start of the next one, which the loop
/// already running picks up. So concatenating any number of synchronous producers uses constant stack.
/// The same holds across threads: a start asked for while another thread is starting an inner producer
/// is made by that thread as soon as its current start returns, never concurrently with it.
///
/// Thread-safety: the outer and every inner signal may send from any thread. Shared state lives in a
/// `Mutex` that is never held while sending downstream or starting a producer.
final class ConcurrentFlattener<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var waiting = FIFO<SignalProducer<Value, Failure>>()
        var running: UInt = 0
        var isOuterCompleted = false
        var isTerminated = false

        /// Marks the flattening terminated if the outer stream and every inner stream have completed.
        mutating func completeIfDone() -> Bool {
            guard !isTerminated, isOuterCompleted, running == 0, waiting.isEmpty else { return false }
            isTerminated = true
            return true
        }
    }

    private let state = Mutex(State())
    private let limit: UInt
    private let downstream: Observer<Value, Failure>
    private let disposables = CompositeDisposable()
    private let starter = SerialGate()

    /// A flattener sending to `downstream`; everything it starts is disposed when `lifetime` ends.
    init(limit: UInt, downstream: Observer<Value, Failure>, lifetime: Lifetime) {
        self.limit = limit
        self.downstream = downstream
        lifetime += disposables
    }

    /// Handles one event of the outer stream.
    func receiveOuter(_ event: Event<SignalProducer<Value, Failure>, Failure>) {
        switch event {
        case let .value(producer):
            let accepted = state.withLock { state in
                guard !state.isTerminated else { return false }
                state.waiting.append(producer)
                return true
            }
            if accepted { starter.run { self.startWaiting() } }
        case .completed:
            let isDone = state.withLock { state in
                state.isOuterCompleted = true
                return state.completeIfDone()
            }
            if isDone { downstream.sendCompleted() }
        case let .failed(error):
            terminate(with: .failed(error))
        case .interrupted:
            terminate(with: .interrupted)
        }
    }

    /// Starts waiting producers while there is room; runs only on the trampoline.
    private func startWaiting() {
        while let producer = nextToStart() {
            producer.startWithSignal { signal, interrupter in
                let handle = disposables.add(interrupter)
                signal.observe { [self] event in
                    switch event {
                    case let .value(value):
                        downstream.send(value: value)
                    case .completed:
                        handle.dispose()
                        innerCompleted()
                    case let .failed(error):
                        terminate(with: .failed(error))
                    case .interrupted:
                        terminate(with: .interrupted)
                    }
                }
            }
        }
    }

    private func nextToStart() -> SignalProducer<Value, Failure>? {
        state.withLock { state in
            guard !state.isTerminated, state.running < limit, let next = state.waiting.popFirst() else { return nil }
            state.running += 1
            return next
        }
    }

    private func innerCompleted() {
        let isDone = state.withLock { state in
            state.running -= 1
            return state.completeIfDone()
        }
        if isDone {
            downstream.sendCompleted()
        } else {
            starter.run { self.startWaiting() }
        }
    }

    private func terminate(with event: Event<Value, Failure>) {
        let isFirst = state.withLock { state in
            guard !state.isTerminated else { return false }
            state.isTerminated = true
            state.waiting.removeAll()
            return true
        }
        guard isFirst else { return }
        downstream.send(event)
        disposables.dispose()
    }
}

extension Signal {
    /// Flattens a signal of producers, running at most `limit` of them at once.
    func flattenConcurrently<Inner>(limit: UInt) -> Signal<Inner, Failure>
    where Value == SignalProducer<Inner, Failure> {
        Signal<Inner, Failure> { downstream, lifetime in
            let flattener = ConcurrentFlattener(limit: limit, downstream: downstream, lifetime: lifetime)
            lifetime += observe(flattener.receiveOuter)
        }
    }
}
