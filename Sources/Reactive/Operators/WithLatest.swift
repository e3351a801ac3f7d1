import Synchronization

extension Signal {
    /// Each value of this signal paired with the latest value of `other`; values sent before `other`
    /// has sent one are dropped.
    ///
    /// The result ends when this signal does; the terminal events of `other` are ignored (its last
    /// value stays in use).
    ///
    /// Thread-safety: this signal and `other` may send from different threads; the result has its own
    /// gate and delivers one event at a time.
    public func withLatest<U>(from other: Signal<U, Never>) -> Signal<(Value, U), Failure> {
        Signal<(Value, U), Failure> { input, lifetime in
            let latest = LatestValue<U>()
            // Observed first, so a signal that replays its current value to new observers provides it
            // before this signal's next value.
            lifetime += other.observeValues { value in latest.value = value }
            lifetime += observe { event in
                guard case let .value(value) = event else { return input.send(event.terminal()!) }
                if let otherValue = latest.value { input.send(value: (value, otherValue)) }
            }
        }
    }

    /// Each value of this signal paired with the latest value of a start of `other`, which begins now
    /// and is interrupted when the result ends; see `withLatest(from:)`.
    public func withLatest<U>(from other: SignalProducer<U, Never>) -> Signal<(Value, U), Failure> {
        Signal<(Value, U), Failure> { input, lifetime in
            other.startWithSignal { otherSignal, interrupter in
                lifetime += interrupter
                lifetime += withLatest(from: otherSignal).observe(input)
            }
        }
    }
}

extension SignalProducer {
    /// Each value of this producer paired with the latest value of `other`; see
    /// `Signal.withLatest(from:)`.
    ///
    /// `other` is started first, so a value it sends at once is there for this producer's first value.
    public func withLatest<U>(from other: SignalProducer<U, Never>) -> SignalProducer<(Value, U), Failure> {
        other.lift(self) { other, signal in signal.withLatest(from: other) }
    }

    /// Each value of this producer paired with the latest value of `other`; see
    /// `Signal.withLatest(from:)`.
    public func withLatest<U>(from other: Signal<U, Never>) -> SignalProducer<(Value, U), Failure> {
        lift { $0.withLatest(from: other) }
    }
}

/// The latest value of the other signal of a `withLatest(from:)`.
///
/// Thread-safe: written from the other signal's thread and read from the source's, under a lock.
private final class LatestValue<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)

    var value: Value? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
