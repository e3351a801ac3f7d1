import Synchronization

extension Signal {
    /// The latest value of this signal paired with the sampler's value, each time `sampler` sends one.
    ///
    /// Nothing is sent for a sample taken before this signal's first value; the same latest value may
    /// be sent several times. The result completes once both this signal and the sampler have
    /// completed (so the last value can still be sampled after this signal completes), fails when this
    /// signal fails, and is interrupted when either is interrupted. It then stops observing both.
    ///
    /// Thread-safety: this signal and `sampler` may send from different threads; the result has its
    /// own gate and delivers one event at a time.
    public func sample<T>(with sampler: Signal<T, Never>) -> Signal<(Value, T), Failure> {
        Signal<(Value, T), Failure> { input, lifetime in
            let state = SampleState<Value>()
            lifetime += observe { event in
                switch event {
                case let .value(value):
                    state.latest = value
                case let .failed(error):
                    input.send(error: error)
                case .completed:
                    if state.complete(.source) { input.sendCompleted() }
                case .interrupted:
                    input.sendInterrupted()
                }
            }
            lifetime += sampler.observe { event in
                switch event {
                case let .value(tick):
                    if let latest = state.latest { input.send(value: (latest, tick)) }
                case .completed:
                    if state.complete(.sampler) { input.sendCompleted() }
                case .interrupted:
                    input.sendInterrupted()
                }
            }
        }
    }

    /// The latest value of this signal, each time `sampler` sends a value; see `sample(with:)`.
    public func sample(on sampler: Signal<(), Never>) -> Signal {
        sample(with: sampler).map { value, _ in value }
    }
}

extension SignalProducer {
    /// The latest value of each start paired with the sampler's value, each time `sampler` sends one;
    /// see `Signal.sample(with:)`. This producer is started before the sampler.
    public func sample<T>(with sampler: SignalProducer<T, Never>) -> SignalProducer<(Value, T), Failure> {
        lift(sampler) { signal, sampler in signal.sample(with: sampler) }
    }

    /// The latest value of each start paired with the sampler's value; see `Signal.sample(with:)`.
    public func sample<T>(with sampler: Signal<T, Never>) -> SignalProducer<(Value, T), Failure> {
        lift { $0.sample(with: sampler) }
    }

    /// The latest value of each start, each time `sampler` sends a value; see `Signal.sample(with:)`.
    /// This producer is started before the sampler.
    public func sample(on sampler: SignalProducer<(), Never>) -> SignalProducer {
        lift(sampler) { signal, sampler in signal.sample(on: sampler) }
    }

    /// The latest value of each start, each time `sampler` sends a value; see `Signal.sample(with:)`.
    public func sample(on sampler: Signal<(), Never>) -> SignalProducer {
        lift { $0.sample(on: sampler) }
    }
}

/// The latest sampled value and which of the two inputs have completed.
///
/// Thread-safe: the source and the sampler update it from their own threads under its lock.
private final class SampleState<Value: Sendable>: Sendable {
    enum Input { case source, sampler }

    private struct State {
        var latest: Value?
        var isSourceCompleted = false
        var isSamplerCompleted = false
    }

    private let state = Mutex(State())

    var latest: Value? {
        get { state.withLock { $0.latest } }
        set { state.withLock { $0.latest = newValue } }
    }

    /// Records that `input` completed; returns whether both have now completed.
    func complete(_ input: Input) -> Bool {
        state.withLock { state in
            switch input {
            case .source: state.isSourceCompleted = true
            case .sampler: state.isSamplerCompleted = true
            }
            return state.isSourceCompleted && state.isSamplerCompleted
        }
    }
}
