/// An event as a member of a durable consumer receives it: the event and how many times it has been
/// delivered, this time included (1 the first time).
///
/// Values are Sendable.
public struct WireDelivery: Sendable, Hashable {
    /// The event.
    public var event: WireEvent
    /// Deliveries of the event so far, this one included.
    public var deliveries: UInt32

    /// A delivery.
    public init(event: WireEvent, deliveries: UInt32) {
        self.event = event
        self.deliveries = deliveries
    }
}
