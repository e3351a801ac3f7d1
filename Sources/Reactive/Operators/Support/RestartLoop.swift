import Synchronization

/// Starts a producer again and again, one start after the other, as long as `shouldRestart` says so
/// for the terminal event of the previous start: the engine of `repeat` and `retry`.
///
/// Starts go through a `SerialGate` used as a trampoline: a start that terminates synchronously only
/// queues the next start, which the loop already running picks up, so any number of synchronous
/// restarts uses constant stack.
///
/// The result's interrupter is forwarded to each start in turn, so disposing the result interrupts the
/// running start and the interruption reaches the result through it (an `observe(on:)` inside keeps
/// its hop); between two starts, the result is interrupted at once.
///
/// Thread-safety: starts never overlap; the current start's interrupter is kept in a
/// `SerialDisposable`, and `shouldRestart` is only called for one start at a time.
final class RestartLoop<Value: Sendable, Failure: Error>: Sendable {
    private let producer: SignalProducer<Value, Failure>
    private let downstream: Observer<Value, Failure>
    private let shouldRestart: @Sendable (Event<Value, Failure>) -> Bool
    private let resultInterrupter: StartInterrupter
    private let current = SerialDisposable()
    private let trampoline = SerialGate()

    /// A loop sending to `downstream`; the running start is interrupted when `lifetime` ends, and
    /// disposing `resultInterrupter` is forwarded to it.
    init(
        _ producer: SignalProducer<Value, Failure>, downstream: Observer<Value, Failure>, lifetime: Lifetime,
        resultInterrupter: StartInterrupter, shouldRestart: @escaping @Sendable (Event<Value, Failure>) -> Bool
    ) {
        self.producer = producer
        self.downstream = downstream
        self.resultInterrupter = resultInterrupter
        self.shouldRestart = shouldRestart
        lifetime += current
    }

    /// Starts the producer (again).
    func start() {
        trampoline.run { self.startOnce() }
    }

    private func startOnce() {
        guard !current.isDisposed else { return }
        producer.startWithSignal { signal, interrupter in
            current.inner = interrupter
            resultInterrupter.forward(to: interrupter)
            signal.observe { [self] event in
                if event.isTerminating, shouldRestart(event) {
                    start()
                } else {
                    downstream.send(event)
                }
            }
        }
    }
}

/// A countdown shared by the starts of one `repeat` or `retry`.
///
/// Thread-safe.
final class Countdown: Sendable {
    private let remaining: Mutex<Int>

    init(_ count: Int) {
        remaining = Mutex(count)
    }

    /// Takes one from the count; false once it is used up.
    func take() -> Bool {
        remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}
