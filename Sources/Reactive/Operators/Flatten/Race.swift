import Synchronization

/// The engine of `.race`: runs every inner producer until one sends a value, then keeps only that one.
///
/// Thread-safety: the outer and inner signals may send from any thread; shared state is in a `Mutex`
/// never held while sending downstream or disposing the losers.
final class RaceFlattener<Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var nextID = 0
        // The interrupter stops a loser; the handle only forgets a finished inner in `disposables`.
        var running: [Int: (interrupter: any Disposable, handle: any Disposable)] = [:]
        var winner: Int?
        var isOuterCompleted = false
        var isTerminated = false

        mutating func completeIfDone() -> Bool {
            guard !isTerminated, isOuterCompleted, running.isEmpty else { return false }
            isTerminated = true
            return true
        }
    }

    private let state = Mutex(State())
    private let downstream: Observer<Value, Failure>
    private let disposables = CompositeDisposable()

    /// A flattener sending to `downstream`; everything it starts is disposed when `lifetime` ends.
    init(downstream: Observer<Value, Failure>, lifetime: Lifetime) {
        self.downstream = downstream
        lifetime += disposables
    }

    /// Handles one event of the outer stream.
    func receiveOuter(_ event: Event<SignalProducer<Value, Failure>, Failure>) {
        switch event {
        case let .value(producer):
            // Once there is a winner, later inner producers have lost already and are never started.
            let id = state.withLock { state -> Int? in
                guard !state.isTerminated, state.winner == nil else { return nil }
                state.nextID += 1
                return state.nextID
            }
            guard let id else { return }
            producer.startWithSignal { signal, interrupter in
                let handle = disposables.add(interrupter)
                let isRunning = state.withLock { state in
                    guard !state.isTerminated, state.winner == nil else { return false }
                    state.running[id] = (interrupter, handle)
                    return true
                }
                guard isRunning else { return interrupter.dispose() }
                signal.observe { [self] event in receiveInner(event, id: id) }
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

    private func receiveInner(_ event: Event<Value, Failure>, id: Int) {
        switch event {
        case let .value(value):
            let (isWinner, losers) = state.withLock { state -> (Bool, [any Disposable]) in
                guard !state.isTerminated else { return (false, []) }
                if let winner = state.winner { return (winner == id, []) }
                state.winner = id
                let losers = state.running.filter { $0.key != id }.map(\.value.interrupter)
                state.running = state.running.filter { $0.key == id }
                return (true, losers)
            }
            guard isWinner else { return }
            // Losers first, so nothing of theirs can follow the winner's first value.
            for loser in losers { loser.dispose() }
            downstream.send(value: value)
        case .completed:
            let (isDone, handle) = state.withLock { state -> (Bool, (any Disposable)?) in
                guard let handle = state.running.removeValue(forKey: id)?.handle else { return (false, nil) }
                return (state.completeIfDone(), handle)
            }
            handle?.dispose()
            if isDone { downstream.sendCompleted() }
        case let .failed(error):
            if isParticipating(id) { terminate(with: .failed(error)) }
        case .interrupted:
            if isParticipating(id) { terminate(with: .interrupted) }
        }
    }

    /// Whether `id` is still in the race (or won it): a disposed loser's interruption is not news.
    private func isParticipating(_ id: Int) -> Bool {
        state.withLock { $0.winner == nil || $0.winner == id }
    }

    private func terminate(with event: Event<Value, Failure>) {
        let isFirst = state.withLock { state in
            guard !state.isTerminated else { return false }
            state.isTerminated = true
            state.running = [:]
            return true
        }
        guard isFirst else { return }
        downstream.send(event)
        disposables.dispose()
    }
}

extension Signal {
    /// Flattens a signal of producers, keeping the first one to send a value.
    func flattenRace<Inner>() -> Signal<Inner, Failure> where Value == SignalProducer<Inner, Failure> {
        Signal<Inner, Failure> { downstream, lifetime in
            let flattener = RaceFlattener(downstream: downstream, lifetime: lifetime)
            lifetime += observe(flattener.receiveOuter)
        }
    }
}
