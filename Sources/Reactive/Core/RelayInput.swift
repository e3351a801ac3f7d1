/// The input of a signal made by a single-source operator: sends go straight to the signal's core.
///
/// It is used only inside the delivery of the upstream signal, which holds the gate both signals share,
/// so a send is a direct call with no closure and no atomic operation. Not for use anywhere else: it is
/// handed to operators by `Signal.relay`, and calling it outside that delivery would break the gate.
@usableFromInline
package struct RelayInput<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    let core: SignalCore<Value, Failure>

    @inlinable
    init(_ core: SignalCore<Value, Failure>) {
        self.core = core
    }

    /// Sends an event.
    @inlinable
    package func send(_ event: Event<Value, Failure>) { core.deliver(event) }

    /// Sends a value.
    @inlinable
    package func send(value: Value) { core.deliver(.value(value)) }

    /// Sends a failure; terminal.
    @inlinable
    package func send(error: Failure) { core.deliver(.failed(error)) }

    /// Sends completion; terminal.
    @inlinable
    package func sendCompleted() { core.deliver(.completed) }

    /// Sends interruption; terminal.
    @inlinable
    package func sendInterrupted() { core.deliver(.interrupted) }
}
