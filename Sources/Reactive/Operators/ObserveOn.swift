extension Signal {
    /// The same events, each delivered through `scheduler`: on its queue, at its next turn.
    ///
    /// Terminal events hop too, after the values before them. Once the returned signal is disposed or
    /// terminated, deliveries still waiting on the scheduler do nothing.
    ///
    /// Caveat of the core's serial gate: if another thread holds the gate of the returned signal (or of
    /// a signal derived from it) at the moment the scheduler delivers, for instance while attaching or
    /// disposing an observer, that thread runs the queued deliveries instead of the scheduler's.
    public func observe(on scheduler: any Scheduler) -> Signal {
        Signal { downstream, lifetime in
            lifetime += observe { event in
                scheduler.schedule { downstream.send(event) }
            }
        }
    }
}

extension SignalProducer {
    /// The same events, each delivered through `scheduler`; see `Signal.observe(on:)`.
    public func observe(on scheduler: any Scheduler) -> SignalProducer {
        lift { $0.observe(on: scheduler) }
    }
}
