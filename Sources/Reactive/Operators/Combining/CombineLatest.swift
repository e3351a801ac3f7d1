/// The shared state of one `combineLatest`: the latest value of every source and how many completed.
///
/// `Storage` holds the sources' latest values (a tuple of optionals, or an array); `combine` turns it
/// into an output once every source has sent a value.
///
/// Thread-safety: sources may send from any thread. Each event is handled in one step on the output
/// signal's gate (`GatedInput`), which both updates the state and sends the result, so outputs reach
/// observers in the order they were computed. `@unchecked Sendable` is sound because `state` is only
/// touched inside that gate's work.
final class LatestValues<Storage: Sendable, Output: Sendable, Failure: Error>: @unchecked Sendable {
    private struct State {
        var storage: Storage
        var completed = 0
        var isTerminated = false
    }

    private var state: State
    private let sourceCount: Int
    private let combine: @Sendable (Storage) -> Output?
    private let output: GatedInput<Output, Failure>

    init(
        _ storage: Storage, sourceCount: Int, output: GatedInput<Output, Failure>,
        combine: @escaping @Sendable (Storage) -> Output?
    ) {
        self.state = State(storage: storage)
        self.sourceCount = sourceCount
        self.output = output
        self.combine = combine
    }

    /// Handles an event of one source; `store` puts a value in that source's slot.
    func receive<V: Sendable>(_ event: Event<V, Failure>, store: @escaping @Sendable (inout Storage, V) -> Void) {
        guard case .interrupted = event else {
            return output.withGate { [self] downstream in handle(event, store: store, downstream) }
        }
        output.withGateNeverWaiting { [self] downstream in handle(event, store: store, downstream) }
    }

    private func handle<V>(
        _ event: Event<V, Failure>, store: (inout Storage, V) -> Void, _ downstream: RelayInput<Output, Failure>
    ) {
        guard !state.isTerminated else { return }
        switch event {
        case let .value(value):
            store(&state.storage, value)
            if let combined = combine(state.storage) { downstream.send(value: combined) }
        case .completed:
            state.completed += 1
            guard state.completed == sourceCount else { return }
            state.isTerminated = true
            downstream.sendCompleted()
        case let .failed(error):
            state.isTerminated = true
            downstream.send(error: error)
        case .interrupted:
            state.isTerminated = true
            downstream.sendInterrupted()
        }
    }
}

/// The latest value of each of `count` sources, and how many have sent one, so that a value arriving
/// before every source has sent is handled in constant time rather than by scanning every slot.
struct LatestSlots<Element: Sendable>: Sendable {
    private var slots: [Element?]
    private var filled = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    mutating func store(_ value: Element, at index: Int) {
        if slots[index] == nil { filled += 1 }
        slots[index] = value
    }

    /// Every source's latest value in order, or nil while one of them has not sent yet.
    var values: [Element]? { filled == slots.count ? slots.compactMap { $0 } : nil }
}

extension Signal {
    /// Pairs of the latest values of `a` and `b`, sent whenever either sends once both have sent one.
    ///
    /// Completes when both have completed; fails or is interrupted as soon as either is.
    public static func combineLatest<A, B>(_ a: Signal<A, Failure>, _ b: Signal<B, Failure>) -> Signal
    where Value == (A, B) {
        Signal.gated { output, lifetime in
            let latest = LatestValues<(A?, B?), (A, B), Failure>((nil, nil), sourceCount: 2, output: output) {
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
        guard !signals.isEmpty else { return Signal { downstream, _ in downstream.sendCompleted() } }
        return Signal.gated { output, lifetime in
            let latest = LatestValues<LatestSlots<Element>, [Element], Failure>(
                LatestSlots(count: signals.count), sourceCount: signals.count, output: output
            ) { $0.values }
            for (index, signal) in signals.enumerated() {
                lifetime += signal.observe { latest.receive($0) { $0.store($1, at: index) } }
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
    /// their signals, so that no synchronous value is missed. Disposing a start of it interrupts every
    /// start still running; the first interruption to reach `transform` ends the result.
    static func startingAll<Element, Output>(
        _ producers: [SignalProducer<Element, Failure>],
        _ transform: @escaping @Sendable ([Signal<Element, Failure>]) -> Signal<Output, Failure>
    ) -> SignalProducer<Output, Failure> {
        SignalProducer<Output, Failure>(forwardingInterruption: { observer, lifetime, resultInterrupter in
            let starts = producers.map { $0.prepareStart() }
            for start in starts {
                lifetime += start.interrupter
                resultInterrupter.forward(to: start.interrupter)
            }
            transform(starts.map(\.signal)).observe(observer, during: lifetime)
            for start in starts { start.run() }
        })
    }
}
