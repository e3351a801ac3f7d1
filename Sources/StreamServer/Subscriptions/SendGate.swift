import Reactive
import Synchronization

/// Serialises the frames of one subscription (or consumer membership) with its end: a frame is handed
/// to the connection while the gate is held, and the end waits for a frame in progress, so nothing of
/// it follows `SUBSCRIPTION_ENDED`. The thread sending a frame may end it from inside the send (an
/// output that closes the session): then the end does not wait for itself.
///
/// Thread-safety: Sendable; every method may be called from any thread.
final class SendGate: Sendable {
    private let sending = Mutex<Void>(())
    /// The thread holding `sending` (0 when none).
    private let sendingThread = Atomic<UInt>(0)

    /// Runs `send` while holding the gate, if `isOpen` (checked under it) holds; whether it ran.
    @discardableResult
    func send(if isOpen: () -> Bool, _ send: () -> Void) -> Bool {
        sending.withLock { _ in
            guard isOpen() else { return false }
            sendingThread.store(CurrentThread.id, ordering: .relaxed)
            defer { sendingThread.store(0, ordering: .relaxed) }
            send()
            return true
        }
    }

    /// Waits until no other thread is sending; a no-op on the sending thread itself.
    func waitForSendInProgress() {
        // Only the sending thread itself can find its own id here, so a relaxed read is enough.
        if sendingThread.load(ordering: .relaxed) == CurrentThread.id { return }
        sending.withLock { _ in }
    }
}
