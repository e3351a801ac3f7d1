extension Signal {
    /// The same events, with side effects run for each one before it is passed on.
    ///
    /// For a terminal event, `event` runs first, then the handler of its kind, then `terminated`.
    /// `disposed` runs once the result's lifetime ends: after its terminal event has been delivered,
    /// or when it is released with no observers.
    ///
    /// - Parameters:
    ///   - event: runs for every event.
    ///   - value: runs for each value.
    ///   - failed: runs on failure.
    ///   - completed: runs on completion.
    ///   - interrupted: runs on interruption.
    ///   - terminated: runs on any terminal event.
    ///   - disposed: runs when the result's lifetime ends.
    @inlinable
    public func on(
        event: (@Sendable (Event) -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Signal {
        relay { downstream, lifetime in
            if let disposed { lifetime.observeEnded(disposed) }
            return Observer { received in
                event?(received)
                switch received {
                case let .value(sent): value?(sent)
                case let .failed(error): failed?(error)
                case .completed: completed?()
                case .interrupted: interrupted?()
                }
                if received.isTerminating { terminated?() }
                downstream.send(received)
            }
        }
    }
}

extension SignalProducer {
    /// The same events, with side effects run for each start and each event.
    ///
    /// `starting` runs for each start just before this producer's start handler, once the result's
    /// observers are attached; `started` runs right after the handler returns (a synchronous producer
    /// has then already sent its events). The other handlers behave as in `Signal.on(...)`, per start;
    /// `disposed` runs when the start ends (termination or disposal). Disposing a start runs
    /// `interrupted` and `terminated` before `disposed`. Disposing a start interrupts this producer's
    /// start and the interruption reaches the handlers through it, on the scheduler of an asynchronous
    /// operator before this one. (Not `@inlinable`: it forwards through internal `StartInterrupter`.)
    public func on(
        starting: (@Sendable () -> Void)? = nil,
        started: (@Sendable () -> Void)? = nil,
        event: (@Sendable (Event) -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        interrupted: (@Sendable () -> Void)? = nil,
        terminated: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> SignalProducer {
        SignalProducer(forwardingInterruption: { observer, lifetime, resultInterrupter in
            startWithSignal { signal, interrupter in
                // The interrupter goes first: a disposed start interrupts, so the handlers see it, then detaches.
                lifetime += interrupter
                resultInterrupter.forward(to: interrupter)
                signal.on(
                    event: event, value: value, failed: failed, completed: completed,
                    interrupted: interrupted, terminated: terminated, disposed: disposed
                ).observe(observer, during: lifetime)
                starting?()
            }
            started?()
        })
    }
}
