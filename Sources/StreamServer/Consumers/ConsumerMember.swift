import StreamProtocol
import Synchronization

/// One connection's membership of a durable consumer: where the consumer sends this member's
/// `DELIVERIES`, and how the membership ends.
///
/// Frames go through a `SendGate` that `end` waits on, so no `DELIVERIES` follows `SUBSCRIPTION_ENDED`.
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
    private let gate = SendGate()

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

    /// Whether the member ended (`end`).
    var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// Whether the member takes frames now: not ended, and its connection's output not backed up.
    var canSend: Bool { !isEnded && outputWritable() }

    func addCredit(_ credit: UInt32) { consumer.addCredit(credit, to: self) }

    func resume() { consumer.wake() }

    /// Sends a `DELIVERIES` frame; false when the member ended (the frame is dropped).
    @discardableResult
    func send(frame: [UInt8]) -> Bool {
        gate.send(if: { !ended.load(ordering: .acquiring) }) { sendFrame(frame) }
    }

    @discardableResult
    func end(reason: SubscriptionEndReason, message: String, replyTo requestID: UInt32?) -> Bool {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        consumer.detach(self)
        gate.waitForSendInProgress()
        if let requestID { sendMessage(.subscriptionEnded(subscriptionID: id, reason: reason, message: message), requestID) }
        onEnded(self)
        return true
    }
}
