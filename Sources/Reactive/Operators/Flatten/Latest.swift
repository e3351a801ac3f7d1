/// The engine of `.latest`: runs only the newest inner producer, disposing the one it replaces.
///
/// Each inner start gets a generation number; events of a replaced inner (including the interruption
/// its disposal causes) are dropped because their generation is no longer the current one.
///
/// Thread-safety: the outer and inner signals may send from any thread. Every event is handled as
/// work on the flattener's own `SerialGate`, so switching to a new inner and checking an inner's
/// event happen in one order: an event of a replaced inner that arrives after the switch is always
/// dropped. `@unchecked Sendable` is sound because `state` is touched only inside that gate's work.
final class LatestFlattener<Value: Sendable, Failure: Error>: @unchecked Sendable {
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

    private let gate = SerialGate()
    private var state = State()
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
        gate.run { [self] in handleOuter(event) }
    }

    private func handleOuter(_ event: Event<SignalProducer<Value, Failure>, Failure>) {
        switch event {
        case let .value(producer):
            guard !state.isTerminated else { return }
            state.generation += 1
            state.isInnerRunning = true
            let generation = state.generation
            producer.startWithSignal { signal, interrupter in
                // Replacing the serial disposable disposes the previous inner before this one starts.
                current.inner = interrupter
                signal.observe { [self] event in
                    gate.run { self.handleInner(event, generation: generation) }
                }
            }
        case .completed:
            state.isOuterCompleted = true
            if state.completeIfDone() { downstream.sendCompleted() }
        case let .failed(error):
            terminate(with: .failed(error))
        case .interrupted:
            terminate(with: .interrupted)
        }
    }

    private func handleInner(_ event: Event<Value, Failure>, generation: Int) {
        guard !state.isTerminated, state.generation == generation else { return }
        switch event {
        case let .value(value):
            downstream.send(value: value)
        case .completed:
            state.isInnerRunning = false
            if state.completeIfDone() { downstream.sendCompleted() }
        case let .failed(error):
            terminate(with: .failed(error))
        case .interrupted:
            terminate(with: .interrupted)
        }
    }

    private func terminate(with event: Event<Value, Failure>) {
        guard !state.isTerminated else { return }
        state.isTerminated = true
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
