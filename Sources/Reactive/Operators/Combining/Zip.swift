/// The shared state of one `zip`: the values each source sent that are not yet paired, and which
/// sources completed.
///
/// `Storage` holds one queue per source (a tuple of queues, or an array); `pair` removes and returns
/// the oldest value of every queue when none is empty; `isExhausted` says whether a source's queue is
/// empty. The result completes as soon as a completed source has nothing left to pair.
///
/// Thread-safety: sources may send from any thread. Each event is handled in one step on the output
/// signal's gate (`GatedInput`), which both updates the queues and sends, so a completion can never
/// overtake the pair it follows. `@unchecked Sendable` is sound because `state` is only touched
/// inside that gate's work.
final class PendingValues<Storage: Sendable, Output: Sendable, Failure: Error>: @unchecked Sendable {
    private struct State {
        var storage: Storage
        var completed: [Bool]
        var isTerminated = false
    }

    private var state: State
    private let pair: @Sendable (inout Storage) -> Output?
    private let isExhausted: @Sendable (Storage, Int) -> Bool
    private let output: GatedInput<Output, Failure>

    init(
        _ storage: Storage, sourceCount: Int, output: GatedInput<Output, Failure>,
        pair: @escaping @Sendable (inout Storage) -> Output?,
        isExhausted: @escaping @Sendable (Storage, Int) -> Bool
    ) {
        self.state = State(storage: storage, completed: Array(repeating: false, count: sourceCount))
        self.output = output
        self.pair = pair
        self.isExhausted = isExhausted
    }

    /// Handles an event of source `index`; `store` queues a value in that source's queue.
    func receive<V: Sendable>(
        _ event: Event<V, Failure>, from index: Int, store: @escaping @Sendable (inout Storage, V) -> Void
    ) {
        guard case .interrupted = event else {
            return output.withGate { [self] downstream in handle(event, from: index, store: store, downstream) }
        }
        output.withGateNeverWaiting { [self] downstream in handle(event, from: index, store: store, downstream) }
    }

    private func handle<V>(
        _ event: Event<V, Failure>, from index: Int, store: (inout Storage, V) -> Void,
        _ downstream: RelayInput<Output, Failure>
    ) {
        guard !state.isTerminated else { return }
        switch event {
        case let .value(value):
            store(&state.storage, value)
            guard let paired = pair(&state.storage) else { return }
            downstream.send(value: paired)
            let isDone = state.completed.indices.contains { state.completed[$0] && isExhausted(state.storage, $0) }
            if isDone { terminate(with: .completed, downstream) }
        case .completed:
            state.completed[index] = true
            if isExhausted(state.storage, index) { terminate(with: .completed, downstream) }
        case let .failed(error):
            terminate(with: .failed(error), downstream)
        case .interrupted:
            terminate(with: .interrupted, downstream)
        }
    }

    private func terminate(with event: Event<Output, Failure>, _ downstream: RelayInput<Output, Failure>) {
        state.isTerminated = true
        downstream.send(event)
    }
}

/// One queue of waiting values per source, and how many of them hold one, so that a value arriving
/// while another source has nothing waiting is queued in constant time rather than by scanning every
/// queue.
struct ZipQueues<Element: Sendable>: Sendable {
    private var queues: [FIFO<Element>]
    private var holding = 0

    init(count: Int) { queues = Array(repeating: FIFO(), count: count) }

    mutating func append(_ value: Element, at index: Int) {
        if queues[index].isEmpty { holding += 1 }
        queues[index].append(value)
    }

    func isEmpty(at index: Int) -> Bool { queues[index].isEmpty }

    /// The oldest value of every queue, removed, or nil while one of them is empty.
    mutating func popPair() -> [Element]? {
        guard holding == queues.count else { return nil }
        let values = queues.indices.compactMap { queues[$0].popFirst() }
        holding = queues.count { !$0.isEmpty }
        return values
    }
}

extension Signal {
    /// Pairs of the values of `a` and `b` in order: the first of each, then the second of each, ...
    ///
    /// Values wait until the other side sends its counterpart. Completes as soon as a side has
    /// completed and has no value left waiting; fails or is interrupted as soon as either side is.
    public static func zip<A, B>(_ a: Signal<A, Failure>, _ b: Signal<B, Failure>) -> Signal
    where Value == (A, B) {
        Signal.gated { output, lifetime in
            let pending = PendingValues<(FIFO<A>, FIFO<B>), (A, B), Failure>(
                (FIFO(), FIFO()), sourceCount: 2, output: output,
                pair: { queues in
                    guard let a = queues.0.first, let b = queues.1.first else { return nil }
                    _ = queues.0.popFirst()
                    _ = queues.1.popFirst()
                    return (a, b)
                },
                isExhausted: { queues, index in index == 0 ? queues.0.isEmpty : queues.1.isEmpty }
            )
            lifetime += a.observe { pending.receive($0, from: 0) { $0.0.append($1) } }
            lifetime += b.observe { pending.receive($0, from: 1) { $0.1.append($1) } }
        }
    }

    /// Arrays of the values of every signal, paired in order; see `zip(_:_:)`. Empty: completes at once.
    public static func zip<S: Sequence, Element>(_ signals: S) -> Signal
    where S.Element == Signal<Element, Failure>, Value == [Element] {
        let signals = Array(signals)
        guard !signals.isEmpty else { return Signal { downstream, _ in downstream.sendCompleted() } }
        return Signal.gated { output, lifetime in
            let pending = PendingValues<ZipQueues<Element>, [Element], Failure>(
                ZipQueues(count: signals.count), sourceCount: signals.count, output: output,
                pair: { $0.popPair() },
                isExhausted: { queues, index in queues.isEmpty(at: index) }
            )
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe { pending.receive($0, from: index) { $0.append($1, at: index) } }
            }
        }
    }

    /// Pairs of the values of this signal and `other`, in order; see `zip(_:_:)`.
    public func zip<U>(with other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        .zip(self, other)
    }
}

extension SignalProducer {
    /// Pairs of the values of `a` and `b` in order, started in that order; see `Signal.zip(_:_:)`.
    public static func zip<A, B>(_ a: SignalProducer<A, Failure>, _ b: SignalProducer<B, Failure>) -> SignalProducer
    where Value == (A, B) {
        a.lift(b) { Signal.zip($0, $1) }
    }

    /// Arrays of the values of every producer, paired in order; see `Signal.zip(_:)`.
    public static func zip<S: Sequence, Element>(_ producers: S) -> SignalProducer
    where S.Element == SignalProducer<Element, Failure>, Value == [Element] {
        startingAll(Array(producers)) { Signal.zip($0) }
    }

    /// Pairs of the values of this producer and `other`, in order; see `zip(_:_:)`.
    public func zip<U>(with other: SignalProducer<U, Failure>) -> SignalProducer<(Value, U), Failure> {
        .zip(self, other)
    }
}
