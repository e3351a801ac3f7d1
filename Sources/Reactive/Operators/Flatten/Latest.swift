import Synchronization

/// The engine of `.latest`: runs only the newest inner producer, disposing the one it replaces.
///
/// Each inner start gets a generation number; events of a replaced inner (including the interruption
/// its disposal causes) are dropped because their generation is no longer the current one.
///
/// Thread-safety: the outer and inner signals may send from any thread; shared state is in a `Mutex`
/// never held while sending downstream. A value an old inner sends on another thread at the very moment
/// it is replaced may still get through, as it passed the check before the switch.
final class LatestFlattener<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var generation = 0
        var isInnerRunning = false
        var isOuterCompleted = false
        var isTerminated = false

        mutating func completeIfDone() -> Bool {
            guard !isTerminated, isOuterCompleted, !isInnerRunning else { return false }
            isTerminated = true
            return true
        }
    }

    private let state = Mutex(State())
    private let downstream: Observer<Value, Failure>
    private let disposables = CompositeDisposable()
    private let current = SerialDisposable()

    /// A flattener sending to `downstream`; everything it starts is disposed when `lifetime` ends.
    init(downstream: Observer<Value, Failure>, lifetime: Lifetime) {
        self.downstream = downstream
        disposables += current
        lifetime += disposables
    }

    /// Handles one event of the outer stream.
    func receiveOuter(_ event: Event<SignalProducer<Value, Failure>, Failure>) {
        switch event {
        case let .value(producer):
            let generation = state.withLock { state -> Int? in
                guard !state.isTerminated else { return nil }
                state.generation += 1
                state.isInnerRunning = true
                return state.generation
            }
            guard let generation else { return }
            producer.startWithSignal { signal, interrupter in
                // Replacing the serial disposable disposes the previous inner before this one starts.
                current.inner = interrupter
                signal.observe { [self] event in receiveInner(event, generation: generation) }
            }
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

    private func receiveInner(_ event: Event<Value, Failure>, generation: Int) {
        let isCurrent = state.withLock { !$0.isTerminated && $0.generation == generation }
        guard isCurrent else { return }
        switch event {
        case let .value(value):
            downstream.send(value: value)
        case .completed:
            let isDone = state.withLock { state in
                guard state.generation == generation else { return false }
                state.isInnerRunning = false
                return state.completeIfDone()
            }
            if isDone { downstream.sendCompleted() }
        case let .failed(error):
            terminate(with: .failed(error))
        case .interrupted:
            terminate(with: .interrupted)
        }
    }

    private func terminate(with event: Event<Value, Failure>) {
        let isFirst = state.withLock { state in
            guard !state.isTerminated else { return false }
            state.isTerminated = true
            return true
        }
        guard isFirst else { return }
        downstream.send(event)
        disposables.dispose()
    }
}

extension Signal {
    /// Flattens a signal of producers, running only the newest one.
    func flattenLatest<Inner>() -> Signal<Inner, Failure> where Value == SignalProducer<Inner, Failure> {
        Signal<Inner, Failure> { downstream, lifetime in
            let flattener = LatestFlattener(downstream: downstream, lifetime: lifetime)
            lifetime += observe(flattener.receiveOuter)
        }
    }
}
