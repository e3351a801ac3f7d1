import Synchronization

/// Holds back a subscription's credit grants while its consumer is behind, so the daemon sends no more
/// than about `limit` events beyond what the consumer has taken.
///
/// `events(in:)` needs it: its async sequence receives events on the event loop and buffers them until
/// the consuming task takes them; granting credit on receipt would let the daemon fill that buffer with
/// the whole stream. Grants made while more than `limit` events wait are run when the consumer takes
/// enough of them.
///
/// Thread-safety: Sendable; its state is under a mutex and grants run outside it.
final class ConsumerDemand: Sendable {
    private struct State {
        var waiting = 0
        var heldGrants: [@Sendable () -> Void] = []
    }

    private let limit: Int
    private let state = Mutex(State())

    /// A gate letting up to `limit` received events wait for the consumer before it holds grants back.
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Counts `count` events handed to the consumer's buffer.
    func received(_ count: Int) {
        state.withLock { $0.waiting += count }
    }

    /// Runs `grant` now if the consumer is keeping up, or once it has caught up.
    func whenConsumerKeepsUp(_ grant: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.waiting > limit else { return true }
            state.heldGrants.append(grant)
            return false
        }
        if now { grant() }
    }

    /// Counts one event the consumer took; runs the held grants once few enough events wait.
    func consumed() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.waiting = max(state.waiting - 1, 0)
            guard state.waiting <= limit, !state.heldGrants.isEmpty else { return [] }
            defer { state.heldGrants = [] }
            return state.heldGrants
        }
        for grant in due { grant() }
    }
}
