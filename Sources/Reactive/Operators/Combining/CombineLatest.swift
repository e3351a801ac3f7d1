import Synchronization

/// The shared state of one `combineLatest`: the latest value of every source and how many completed.
///
/// `Storage` holds the sources' latest values (a tuple of optionals, or an array); `combine` turns it
/// into an output once every source has sent a value.
///
/// Thread-safety: sources may send from any thread; the storage is only touched under the `Mutex`,
/// which is released before anything is sent downstream.
final class LatestValues<Storage: Sendable, Output: Sendable, Failure: Error>: Sendable {
    private struct State {
        var storage: Storage
        var completed = 0
        var isTerminated = false
    }

    private let state: Mutex<State>
    private let sourceCount: Int
    private let combine: @Sendable (Storage) -> Output?
    private let downstream: Observer<Output, Failure>

    init(
        _ storage: Storage, sourceCount: Int, downstream: Observer<Output, Failure>,
        combine: @escaping @Sendable (Storage) -> Output?
    ) {
        self.state = Mutex(State(storage: storage))
        self.sourceCount = sourceCount
        self.downstream = downstream
        self.combine = combine
    }

    /// Handles an event of one source; `store` puts a value in that source's slot.
    func receive<V>(_ event: Event<V, Failure>, store: @Sendable (inout Storage, V) -> Void) {
        switch event {
        case let .value(value):
            let output = state.withLock { state -> Output? in
                guard !state.isTerminated else { return nil }
                store(&state.storage, value)
                return combine(state.storage)
            }
            if let output { downstream.send(value: output) }
        case .completed:
            let isDone = state.withLock { state in
                state.completed += 1
                guard !state.isTerminated, state.completed == sourceCount else { return false }
                state.isTerminated = true
                return true
            }
            if isDone { downstream.sendCompleted() }
        case let .failed(error):
            if markTerminated() { downstream.send(error: error) }
        case .interrupted:
            if markTerminated() { downstream.sendInterrupted() }
        }
    }

    private func markTerminated() -> Bool {
        state.withLock { state in
            defer { state.isTerminated = true }
            return !state.isTerminated
        }
    }
}

extension Signal {
    /// Pairs of the latest values of `a` and `b`, sent whenever either sends once both have sent one.
    ///
    /// Completes when both have completed; fails or is interrupted as soon as either is.
    public static func combineLatest<A, B>(_ a: Signal<A, Failure>, _ b: Signal<B, Failure>) -> Signal
    where Value == (A, B) {
        Signal { downstream, lifetime in
            let latest = LatestValues<(A?, B?), (A, B), Failure>((nil, nil), sourceCount: 2, downstream: downstream) {
                guard let a = $0.0, let b = $0.1 else { return nil }
                return (a, b)
            }
            lifetime += a.observe { latest.receive($0) { $0.0 = $1 } }
            lifetime += b.observe { latest.receive($0) { $0.1 = $1 } }
        }
    }

    /// Arrays of the latest values of every signal, in the order given, sent whenever one sends once
    /// all have sent a value.
    ///
    /// Completes when all have completed, and at once when `signals` is empty; fails or is interrupted
    /// as soon as one of them is.
    public static func combineLatest<S: Sequence, Element>(_ signals: S) -> Signal
    where S.Element == Signal<Element, Failure>, Value == [Element] {
        let signals = Array(signals)
        return Signal { downstream, lifetime in
            guard !signals.isEmpty else { return downstream.sendCompleted() }
            let latest = LatestValues<[Element?], [Element], Failure>(
                Array(repeating: nil, count: signals.count), sourceCount: signals.count, downstream: downstream
            ) { storage in
                let values = storage.compactMap { $0 }
                return values.count == storage.count ? values : nil
            }
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe { latest.receive($0) { $0[index] = $1 } }
            }
        }
    }

    /// `reduce` applied to the latest values of every signal; see `combineLatest(_:)` for an array.
    public static func combineLatest<S: Sequence, Element>(
        _ signals: S, reduce: @escaping @Sendable ([Element]) -> Value
    ) -> Signal where S.Element == Signal<Element, Failure> {
        Signal<[Element], Failure>.combineLatest(signals).map(reduce)
    }

    /// Pairs of the latest values of this signal and `other`; see `combineLatest(_:_:)`.
    public func combineLatest<U>(with other: Signal<U, Failure>) -> Signal<(Value, U), Failure> {
        .combineLatest(self, other)
    }
}

extension SignalProducer {
    /// Pairs of the latest values of `a` and `b`, started in that order; see `Signal.combineLatest(_:_:)`.
    public static func combineLatest<A, B>(
        _ a: SignalProducer<A, Failure>, _ b: SignalProducer<B, Failure>
    ) -> SignalProducer where Value == (A, B) {
        a.lift(b) { Signal.combineLatest($0, $1) }
    }

    /// Arrays of the latest values of every producer, started in order; see `Signal.combineLatest(_:)`.
    public static func combineLatest<S: Sequence, Element>(_ producers: S) -> SignalProducer
    where S.Element == SignalProducer<Element, Failure>, Value == [Element] {
        startingAll(Array(producers)) { Signal.combineLatest($0) }
    }

    /// `reduce` applied to the latest values of every producer; see `combineLatest(_:)`.
    public static func combineLatest<S: Sequence, Element>(
        _ producers: S, reduce: @escaping @Sendable ([Element]) -> Value
    ) -> SignalProducer where S.Element == SignalProducer<Element, Failure> {
        SignalProducer<[Element], Failure>.combineLatest(producers).map(reduce)
    }

    /// Pairs of the latest values of this producer and `other`; see `combineLatest(_:_:)`.
    public func combineLatest<U>(with other: SignalProducer<U, Failure>) -> SignalProducer<(Value, U), Failure> {
        .combineLatest(self, other)
    }

    /// A producer that starts every one of `producers` in order, after `transform` has observed all
    /// their signals, so that no synchronous value is missed.
    static func startingAll<Element, Output>(
        _ producers: [SignalProducer<Element, Failure>],
        _ transform: @escaping @Sendable ([Signal<Element, Failure>]) -> Signal<Output, Failure>
    ) -> SignalProducer<Output, Failure> {
        SignalProducer<Output, Failure> { observer, lifetime in
            // Each start's handler runs when its setup returns, so setting up from the last producer
            // inwards makes the first producer's setup the innermost: it starts first.
            func setUp(_ index: Int, _ later: [Signal<Element, Failure>]) {
                guard index >= 0 else {
                    lifetime += transform(later).observe(observer)
                    return
                }
                producers[index].startWithSignal { signal, interrupter in
                    lifetime += interrupter
                    setUp(index - 1, [signal] + later)
                }
            }
            setUp(producers.count - 1, [])
        }
    }
}
