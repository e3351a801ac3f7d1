extension Signal {
    /// The events of this signal until `trigger` sends a value or completes; then completion.
    ///
    /// Whichever ends first, this signal or the trigger, the result stops observing both. A trigger
    /// that is interrupted never fires, so the result then follows this signal to its end.
    ///
    /// Thread-safety: this signal and `trigger` may send from different threads; the result has its
    /// own gate and delivers one event at a time.
    public func take(until trigger: Signal<(), Never>) -> Signal {
        Signal { input, lifetime in
            lifetime += observe(input)
            lifetime += trigger.observe { event in
                switch event {
                case .value, .completed: input.sendCompleted()
                case .interrupted: break
                }
            }
        }
    }
}

extension SignalProducer {
    /// The events of this producer until `trigger` sends a value or completes; then completion, which
    /// interrupts both starts.
    ///
    /// `trigger` is started first, so a trigger that fires at once completes the result before this
    /// producer sends anything (as in ReactiveSwift).
    public func take(until trigger: SignalProducer<(), Never>) -> SignalProducer {
        trigger.lift(self) { trigger, signal in signal.take(until: trigger) }
    }

    /// The events of each start until `trigger` sends a value or completes; then completion, which
    /// interrupts the start.
    public func take(until trigger: Signal<(), Never>) -> SignalProducer {
        lift { $0.take(until: trigger) }
    }
}
