extension Signal {
    /// The same events, each delivered through `scheduler`: on its queue, at its next turn.
    ///
    /// Terminal events hop too, after the values before them. Once the returned signal is disposed or
    /// terminated, deliveries still waiting on the scheduler do nothing.
    ///
    /// Values, completion and failure reach the observers on the scheduler's thread: a scheduled delivery
    /// that finds another thread inside the signal (attaching an observer, say) waits for it, then
    /// delivers itself. Only an interruption may be delivered by the thread holding the signal at the
    /// time, because an interruption never waits (see `SignalCore.sendContended`).
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
    ///
    /// Disposing a start stops the work upstream at once, but its observer gets the interruption on
    /// `scheduler`, after the events already scheduled there, and nothing after it.
    public func observe(on scheduler: any Scheduler) -> SignalProducer {
        lift { $0.observe(on: scheduler) }
    }
}
