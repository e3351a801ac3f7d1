extension Signal {
    /// A new signal fed by this one: `makeObserver` is given the new signal's input and lifetime and
    /// returns the observer that is attached to this signal. The building block of single-source
    /// operators. The new signal shares this signal's gate, so the returned observer, and the input it
    /// sends to, must only be called from inside this signal's delivery (never later, never from another
    /// thread); operators with a second source of events (a trigger, a timer) need their own signal.
    @inlinable
    func relay<U, F>(
        _ makeObserver: (_ downstream: RelayInput<U, F>, _ lifetime: Lifetime) -> Observer
    ) -> Signal<U, F> {
        Signal<U, F>(sharing: core.gate) { downstream, lifetime in
            observe(makeObserver(downstream, lifetime), during: lifetime)
        }
    }
}
