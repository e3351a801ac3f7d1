/// The input of a signal fed by several sources that share state, like `combineLatest` or `zip`:
/// updating the state and sending the result happen in one step on the signal's gate.
///
/// Computing an output under one lock and sending it after would let two sources' outputs overtake each
/// other between the two steps (a stale combination delivered last, or a completion ahead of the value
/// it should follow). Doing both inside the gate's work orders them as they were computed.
///
/// Thread-safe: `withGate` may be called from any thread, with the waiting rules of a send
/// (`SerialGate.perform`); `withGateNeverWaiting` queues instead of waiting, for interruptions.
@usableFromInline
package struct GatedInput<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let core: SignalCore<Value, Failure>

    @usableFromInline
    init(_ core: SignalCore<Value, Failure>) {
        self.core = core
    }

    /// Runs `work` on the gate, handing it the input to send with; state that only `work` touches
    /// needs no other lock.
    package func withGate(_ work: @escaping @Sendable (RelayInput<Value, Failure>) -> Void) {
        let core = core
        core.gate.perform { work(RelayInput(core)) }
    }

    /// As `withGate`, but never waits: for work that sends an interruption, which may come from a
    /// thread disposing from inside another delivery.
    package func withGateNeverWaiting(_ work: @escaping @Sendable (RelayInput<Value, Failure>) -> Void) {
        let core = core
        core.gate.run { work(RelayInput(core)) }
    }
}
