import Synchronization

/// The credit window of a subscription read by a consuming task: the daemon is granted credit only for
/// events the consumer has taken, so no more than `window` events are ever on their way or waiting.
///
/// The async sequences of `StreamConnection` need it: their events arrive on the event loop and wait
/// in a buffer until the consuming task takes them, and granting credit on receipt would let the daemon
/// fill that buffer with the whole stream. With it, what the subscription has outstanding at the
/// daemon, plus what waits in the buffer, plus what was taken but not yet granted again, is `window`,
/// so the buffer never holds more than `window` events. A subscription opened again after a lost
/// connection asks for what the window has room for (`window` minus what still waits; zero is valid).
///
/// Thread-safety: Sendable; its state is under a mutex and grants run outside it.
final class ConsumerDemand: Sendable {
    private struct State {
        var waiting = 0
        var peakWaiting = 0
        var taken: UInt32 = 0
        var grant: (@Sendable (UInt32) -> Void)?
    }

    /// The most events outstanding at the daemon or waiting for the consumer.
    let window: UInt32
    private let state = Mutex(State())

    /// A window of `window` events (at least 2, so that half of it is a grant).
    init(window: UInt32) {
        self.window = max(window, 2)
    }

    /// Starts the window of a new subscription: returns the credit it may ask for in `SUBSCRIBE`, and
    /// keeps `grant` to send later credit to it.
    func opened(grant: @escaping @Sendable (UInt32) -> Void) -> UInt32 {
        state.withLock { state in
            state.taken = 0
            state.grant = grant
            return window - UInt32(clamping: min(state.waiting, Int(window)))
        }
    }

    /// Counts `count` events handed to the consumer's buffer.
    func received(_ count: Int) {
        state.withLock { state in
            state.waiting += count
            state.peakWaiting = max(state.peakWaiting, state.waiting)
        }
    }

    /// Counts one event the consumer took; once half the window was taken, grants that much again.
    func consumed() {
        let due = state.withLock { state -> (@Sendable (UInt32) -> Void, UInt32)? in
            state.waiting = max(state.waiting - 1, 0)
            state.taken += 1
            guard state.taken >= window / 2, let grant = state.grant else { return nil }
            defer { state.taken = 0 }
            return (grant, state.taken)
        }
        if let (grant, count) = due { grant(count) }
    }

    /// The events received and not yet taken.
    var waiting: Int { state.withLock { $0.waiting } }

    /// The most events that ever waited for the consumer at once.
    var peakWaiting: Int { state.withLock { $0.peakWaiting } }
}
