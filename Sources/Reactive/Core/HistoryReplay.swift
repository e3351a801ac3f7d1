/// A new observer of a signal whose history lives outside memory, as its history source sees it while
/// replaying: the source sends it the stored events, then the observer joins the live events.
///
/// Used only inside the source's replay, which runs under the signal's gate.
@usableFromInline
package struct HistoryReplay<Value: Sendable, Failure: Error> {
    @usableFromInline
    let subscription: SignalSubscription<Value, Failure>

    @usableFromInline
    init(_ subscription: SignalSubscription<Value, Failure>) {
        self.subscription = subscription
    }

    /// Whether the observer still wants events; a replay stops as soon as this is false.
    package var isActive: Bool { subscription.isActive }

    /// Sends one stored event to this observer only.
    package func send(_ event: Event<Value, Failure>) {
        if subscription.isActive { subscription.action(event) }
    }
}

@available(*, unavailable)
extension HistoryReplay: Sendable {}

extension Signal {
    /// A signal with its own gate that replays `history` to each new observer, under its gate, before the
    /// observer joins the live events; `history` returns whether it sent a terminal event (the observer
    /// then does not join). The owner sends live events through the returned input, in the same gate,
    /// which makes the hand-over from history to live exact.
    package static func withHistory(
        _ history: @escaping @Sendable (HistoryReplay<Value, Failure>) -> Bool
    ) -> (signal: Signal, input: GatedInput<Value, Failure>) {
        let signal = Signal(gate: SerialGate(), history: history)
        return (signal, GatedInput(signal.core))
    }
}
