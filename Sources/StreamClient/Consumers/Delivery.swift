/// One event handed to a member of a durable consumer: the value, where it sits in the stream, how
/// many times it has been delivered, and the calls that settle it.
///
/// Settle each delivery once: `ack()` when it is handled, `nack(delay:)` to have it delivered again
/// (to any member). One left unsettled is delivered again after the consumer's ack wait, and holds
/// one of its member's credits until then. A delivery may be settled after its member left (a loop
/// that broke out), while its connection is open.
/// Thread-safety: Sendable when `Value` is; settle from any thread or task.
///
/// ```swift
/// for try await delivery in connection.deliveries(of: "billing", on: "orders", as: Order.self) {
///     try await charge(delivery.value)
///     delivery.ack()
/// }
/// ```
public struct Delivery<Value> {
    /// The decoded payload.
    public let value: Value
    /// The per-stream sequence number.
    public let sequence: UInt64
    /// When the event was stored, in microseconds since the Unix epoch.
    public let timestamp: Int64
    /// How many times the event has been delivered, this time included (1 the first time).
    public let deliveries: UInt32

    let membership: ConsumerMembership

    init(value: Value, sequence: UInt64, timestamp: Int64, deliveries: UInt32, membership: ConsumerMembership) {
        self.value = value
        self.sequence = sequence
        self.timestamp = timestamp
        self.deliveries = deliveries
        self.membership = membership
    }

    /// Acknowledges the event: the consumer does not deliver it again. Sent with the other
    /// acknowledgements of the moment in one `ACK`; use `ackSync()` to wait until it is stored.
    public func ack() {
        membership.ack(sequence, stored: nil)
    }

    /// Acknowledges the event and returns once the daemon has stored the acknowledgement, so that no
    /// restart of the daemon delivers it again.
    ///
    /// - Throws: `StreamClientError`: `.server` if the daemon could not store it, `.connectionClosed`
    ///   if the connection was lost first (the event is then delivered again after its ack wait).
    public func ackSync() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            membership.ack(sequence) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Gives the event back, to be delivered again (to any member, this one included) after `delay`.
    public func nack(delay: Duration = .zero) {
        membership.giveBack(sequence, delay: delay)
    }

    /// The same delivery carrying `transform`'s value.
    func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Delivery<Other> {
        Delivery<Other>(value: try transform(value), sequence: sequence, timestamp: timestamp, deliveries: deliveries, membership: membership)
    }
}

extension Delivery: Sendable where Value: Sendable {}
