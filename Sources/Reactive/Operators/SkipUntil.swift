import Synchronization

extension Signal {
    /// The values of this signal from the moment `trigger` sends a value or completes; the values
    /// before are dropped. Terminal events of this signal always pass through.
    ///
    /// Once fired, the trigger is no longer observed. A trigger that is interrupted never fires, so
    /// every value is then dropped. Unlike ReactiveSwift, which starts observing this signal only once
    /// the trigger fires, this signal's termination before the trigger fires ends the result at once.
    ///
    /// Thread-safety: this signal and `trigger` may send from different threads; the result has its
    /// own gate and delivers one event at a time.
    public func skip(until trigger: Signal<(), Never>) -> Signal {
        Signal { input, lifetime in
            let gate = SkipUntilGate()
            let triggerObservation = SerialDisposable()
            lifetime += triggerObservation
            triggerObservation.inner = trigger.observe { event in
                switch event {
                case .value, .completed:
                    gate.open()
                    triggerObservation.dispose()
                case .interrupted:
                    break
                }
            }
            lifetime += observe { event in
                if case .value = event, !gate.isOpen { return }
                input.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// The values of this producer from the moment `trigger` sends a value or completes; see
    /// `Signal.skip(until:)`.
    ///
    /// `trigger` is started first, so a trigger that fires at once lets every value through.
    public func skip(until trigger: SignalProducer<(), Never>) -> SignalProducer {
        trigger.lift(self) { trigger, signal in signal.skip(until: trigger) }
    }

    /// The values of each start from the moment `trigger` sends a value or completes; see
    /// `Signal.skip(until:)`.
    public func skip(until trigger: Signal<(), Never>) -> SignalProducer {
        lift { $0.skip(until: trigger) }
    }
}

/// Whether the trigger of a `skip(until:)` has fired.
///
/// Thread-safe: the trigger opens it from its thread while the source reads it from another.
private final class SkipUntilGate: Sendable {
    private let opened = Atomic<Bool>(false)

    var isOpen: Bool { opened.load(ordering: .acquiring) }

    func open() { opened.store(true, ordering: .releasing) }
}
