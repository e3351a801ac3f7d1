extension Signal {
    /// Every event, the terminal one included, as a value of a signal that cannot fail.
    ///
    /// After the terminal event is sent as a value, the result completes; except after interruption,
    /// which it passes on as its own interruption, because a disposed stream did not finish.
    @inlinable
    public func materialize() -> Signal<Event, Never> {
        relay { downstream, _ in
            Observer { event in
                downstream.send(value: event)
                switch event {
                case .value: break
                case .completed, .failed: downstream.sendCompleted()
                case .interrupted: downstream.sendInterrupted()
                }
            }
        }
    }

    /// The events carried as values, turned back into events: the inverse of `materialize()`.
    ///
    /// The first terminal event carried ends the result, which stops the observation of this signal.
    /// If this signal ends first, its completion or interruption passes through.
    @inlinable
    public func dematerialize<V, F>() -> Signal<V, F> where Value == Reactive.Event<V, F>, Failure == Never {
        relay { downstream, _ in
            Observer { event in
                switch event {
                case let .value(carried): downstream.send(carried)
                case .completed: downstream.sendCompleted()
                case .interrupted: downstream.sendInterrupted()
                }
            }
        }
    }
}

extension SignalProducer {
    /// Every event, the terminal one included, as a value; see `Signal.materialize()`.
    @inlinable
    public func materialize() -> SignalProducer<Event, Never> {
        lift { $0.materialize() }
    }

    /// The events carried as values, turned back into events; see `Signal.dematerialize()`.
    @inlinable
    public func dematerialize<V, F>() -> SignalProducer<V, F> where Value == Reactive.Event<V, F>, Failure == Never {
        lift { $0.dematerialize() }
    }
}
