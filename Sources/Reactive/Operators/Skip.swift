extension Signal {
    /// Every value but the first `count`; terminal events pass through.
    @inlinable
    public func skip(first count: Int) -> Signal {
        precondition(count >= 0, "skip(first:) needs a count of zero or more, not \(count)")
        guard count > 0 else { return self }
        return relay { downstream, _ in
            let remaining = SerialBox(count)
            return Observer { event in
                if case .value = event, remaining.value > 0 {
                    remaining.value -= 1
                    return
                }
                downstream.send(event)
            }
        }
    }

    /// Every value from the first one for which `shouldSkip` is false; from then on `shouldSkip` is
    /// no longer called. Terminal events pass through.
    @inlinable
    public func skip(while shouldSkip: @escaping @Sendable (Value) -> Bool) -> Signal {
        relay { downstream, _ in
            let isSkipping = SerialBox(true)
            return Observer { event in
                if isSkipping.value, case let .value(value) = event {
                    guard !shouldSkip(value) else { return }
                    isSkipping.value = false
                }
                downstream.send(event)
            }
        }
    }
}

extension SignalProducer {
    /// Every value but the first `count`; terminal events pass through.
    @inlinable
    public func skip(first count: Int) -> SignalProducer {
        lift { $0.skip(first: count) }
    }

    /// Every value from the first one for which `shouldSkip` is false; terminal events pass through.
    @inlinable
    public func skip(while shouldSkip: @escaping @Sendable (Value) -> Bool) -> SignalProducer {
        lift { $0.skip(while: shouldSkip) }
    }
}
