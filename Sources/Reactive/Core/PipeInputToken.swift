/// What a pipe's input holds: its signal's send function. When the last copy of the input is released,
/// so is the token, and its `deinit` interrupts the signal, which disposes the pipe's disposable and
/// releases its observers, as ReactiveSwift does.
///
/// Thread-safety: immutable; `deinit` may run on any thread, inside a delivery too, because an
/// interruption never waits for the gate (see `SignalCore.sendContended`).
final class PipeInputToken<Value: Sendable, Failure: Error>: Sendable {
    let send: @Sendable (Event<Value, Failure>) -> Void

    init(_ send: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.send = send
    }

    deinit { send(.interrupted) }
}
