extension Signal {
    /// Every value in one array, sent when this signal completes (an empty array if no value came),
    /// then completion.
    ///
    /// A failure or interruption passes through and the collected values are dropped.
    @inlinable
    public func collect() -> Signal<[Value], Failure> {
        relay { downstream, _ in
            let collected = SerialBox<[Value]>([])
            return Observer { event in
                switch event {
                case let .value(value):
                    collected.value.append(value)
                case .completed:
                    let values = collected.value
                    collected.value = []
                    downstream.send(value: values)
                    downstream.sendCompleted()
                case .failed, .interrupted:
                    collected.value = []
                    downstream.send(event.terminal()!)
                }
            }
        }
    }

    /// The values in arrays of `count`; on completion, the values left over as one shorter array.
    ///
    /// No empty array is sent at completion unless no value came at all, in which case one empty
    /// array is sent, as `collect()` does. A failure or interruption passes through and the values
    /// left over are dropped.
    @inlinable
    public func collect(count: Int) -> Signal<[Value], Failure> {
        precondition(count > 0, "collect(count:) needs a count of one or more, not \(count)")
        return relay { downstream, _ in
            let state = SerialBox((collected: [Value](), hasReceivedValues: false))
            return Observer { event in
                switch event {
                case let .value(value):
                    state.value.hasReceivedValues = true
                    state.value.collected.append(value)
                    guard state.value.collected.count == count else { return }
                    let values = state.value.collected
                    state.value.collected = []
                    downstream.send(value: values)
                case .completed:
                    let (values, hasReceivedValues) = state.value
                    state.value.collected = []
                    if !values.isEmpty || !hasReceivedValues { downstream.send(value: values) }
                    downstream.sendCompleted()
                case .failed, .interrupted:
                    state.value.collected = []
                    downstream.send(event.terminal()!)
                }
            }
        }
    }
}

extension SignalProducer {
    /// Every value in one array, sent when this producer completes; see `Signal.collect()`.
    @inlinable
    public func collect() -> SignalProducer<[Value], Failure> {
        lift { $0.collect() }
    }

    /// The values in arrays of `count`, the remainder on completion; see `Signal.collect(count:)`.
    @inlinable
    public func collect(count: Int) -> SignalProducer<[Value], Failure> {
        lift { $0.collect(count: count) }
    }
}
