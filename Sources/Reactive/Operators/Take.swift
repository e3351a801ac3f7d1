extension Signal {
    /// The first `count` values, then completion.
    ///
    /// Completing stops the observation of this signal, so an upstream that nobody else observes is
    /// released (a producer's start is interrupted). `take(first: 0)` completes at once. A failure or
    /// interruption before the `count`th value passes through.
    @inlinable
    public func take(first count: Int) -> Signal {
        precondition(count >= 0, "take(first:) needs a count of zero or more, not \(count)")
        // A relay could only complete from inside an upstream delivery, which may never come.
        guard count > 0 else { return Signal { input, _ in input.sendCompleted() } }
        return relay { downstream, _ in
            let taken = SerialBox(0)
            return Observer { event in
                downstream.send(event)
                guard case .value = event else { return }
                taken.value += 1
                if taken.value == count { downstream.sendCompleted() }
            }
        }
    }

    /// The last `count` values, sent together when this signal completes, then completion.
    ///
    /// Keeps at most `count` values. A failure or interruption passes through and the kept values are
    /// dropped.
    @inlinable
    public func take(last count: Int) -> Signal {
        precondition(count >= 0, "take(last:) needs a count of zero or more, not \(count)")
        return relay { downstream, _ in
            let kept = SerialBox(count > 0 ? ReplayBuffer<Value>(.last(count)) : nil)
            return Observer { event in
                switch event {
                case let .value(value):
                    kept.value?.append(value)
                case .completed:
                    if let values = kept.value {
                        kept.value = nil
                        for value in values { downstream.send(value: value) }
                    }
                    downstream.sendCompleted()
                case .failed, .interrupted:
                    kept.value = nil
                    downstream.send(event)
                }
            }
        }
    }

    /// The values up to the first one for which `shouldContinue` is false; that value is not sent and
    /// the signal completes instead, which stops the observation of this signal.
    @inlinable
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> Signal {
        relay { downstream, _ in
            Observer { event in
                if case let .value(value) = event, !shouldContinue(value) { return downstream.sendCompleted() }
                downstream.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// The first `count` values, then completion, which interrupts this producer's start; see
    /// `Signal.take(first:)`.
    @inlinable
    public func take(first count: Int) -> SignalProducer {
        lift { $0.take(first: count) }
    }

    /// The last `count` values, sent together when this producer completes; see `Signal.take(last:)`.
    @inlinable
    public func take(last count: Int) -> SignalProducer {
        lift { $0.take(last: count) }
    }

    /// The values up to the first one for which `shouldContinue` is false, then completion, which
    /// interrupts this producer's start.
    @inlinable
    public func take(while shouldContinue: @escaping @Sendable (Value) -> Bool) -> SignalProducer {
        lift { $0.take(while: shouldContinue) }
    }
}
