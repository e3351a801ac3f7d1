import Reactive
import StreamProtocol
import Synchronization

/// One connection's membership of a durable consumer: where the consumer sends this member's
/// `DELIVERIES`, and how the membership ends.
///
/// Frames are sent under a lock that `end` also takes, so no `DELIVERIES` follows
/// `SUBSCRIPTION_ENDED`; a send that ends the session (from inside `output`) does not wait for itself.
/// Thread-safety: Sendable; every method may be called from any thread.
final class ConsumerMember: LiveSubscription {
    let id: UInt32
    let requestID: UInt32
    let consumer: ServedConsumer
    var stream: String { consumer.stream }

    private let sendMessage: @Sendable (ServerMessage, UInt32) -> Void
    private let sendFrame: @Sendable ([UInt8]) -> Void
    private let outputWritable: @Sendable () -> Bool
    private let onEnded: @Sendable (ConsumerMember) -> Void
    private let ended = Atomic<Bool>(false)
    private let sending = Mutex<Void>(())
    /// The thread holding `sending` (0 when none).
    private let sendingThread = Atomic<UInt>(0)

    init(
        id: UInt32, requestID: UInt32, consumer: ServedConsumer,
        send: @escaping @Sendable (ServerMessage, UInt32) -> Void, sendFrame: @escaping @Sendable ([UInt8]) -> Void,
        canSend: @escaping @Sendable () -> Bool, onEnded: @escaping @Sendable (ConsumerMember) -> Void
    ) {
        self.id = id
        self.requestID = requestID
        self.consumer = consumer
        sendMessage = send
        self.sendFrame = sendFrame
        outputWritable = canSend
        self.onEnded = onEnded
    }

    /// Whether the member takes frames now: not ended, and its connection's output not backed up.
    var canSend: Bool { !ended.load(ordering: .acquiring) && outputWritable() }

    func addCredit(_ credit: UInt32) { consumer.addCredit(credit, to: self) }

    func resume() { consumer.wake() }

    /// Sends a `DELIVERIES` frame; false when the member ended (the frame is dropped).
    @discardableResult
    func send(frame: [UInt8]) -> Bool {
        sending.withLock { _ in
            guard !ended.load(ordering: .acquiring) else { return false }
            sendingThread.store(CurrentThread.id, ordering: .relaxed)
            defer { sendingThread.store(0, ordering: .relaxed) }
            sendFrame(frame)
            return true
        }
    }

    @discardableResult
    func end(reason: SubscriptionEndReason, message: String, replyTo requestID: UInt32?) -> Bool {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        consumer.detach(self)
        // Only the sending thread itself can find its own id here, so a relaxed read is enough.
        if sendingThread.load(ordering: .relaxed) != CurrentThread.id { sending.withLock { _ in } }
        if let requestID { sendMessage(.subscriptionEnded(subscriptionID: id, reason: reason, message: message), requestID) }
        onEnded(self)
        return true
    }
}
