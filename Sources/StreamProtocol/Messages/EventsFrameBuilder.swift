/// An `EVENTS` (or `DELIVERIES`) frame written one event at a time, straight from wherever the events
/// are kept, so a server replaying a stream copies each payload once: into the frame.
///
/// The result is byte for byte what `ServerMessage.events(...)` (or `.deliveries(...)`)
/// `.encoded(requestID:)` gives.
/// A value type; not shared between threads.
public struct EventsFrameBuilder: Sendable {
    /// Offset of the `count` field: length (4), type, flags, request id (4), subscription id (4).
    private static let countOffset = 4 + Frame.headerLength + 4

    private var writer: WireWriter
    /// The events written so far.
    public private(set) var count = 0
    /// The payload bytes written so far.
    public private(set) var payloadBytes = 0
    /// Whether each event carries its delivery count (a `DELIVERIES` frame).
    private let countsDeliveries: Bool

    /// An empty frame for `subscriptionID`, answering `requestID`, with room for `capacity` bytes: a
    /// `DELIVERIES` frame when `countsDeliveries`, else `EVENTS`.
    public init(subscriptionID: UInt32, requestID: UInt32, capacity: Int = 4096, countsDeliveries: Bool = false) {
        self.countsDeliveries = countsDeliveries
        writer = WireWriter(capacity: capacity)
        writer.write(UInt32(0))
        writer.write(countsDeliveries ? MessageType.deliveries : MessageType.events)
        writer.write(UInt8(0))
        writer.write(requestID)
        writer.write(subscriptionID)
        writer.write(UInt32(0))
    }

    /// Adds one event; `payload` is copied. `deliveries` is written only in a `DELIVERIES` frame.
    public mutating func append(sequence: UInt64, timestamp: Int64, kind: WireEvent.Kind, payload: UnsafeRawBufferPointer, deliveries: UInt32 = 1) throws {
        writer.write(sequence)
        writer.write(timestamp)
        writer.write(kind.rawValue)
        try writer.write(bytes: payload, field: "event.payload")
        if countsDeliveries { writer.write(deliveries) }
        count += 1
        payloadBytes += payload.count
    }

    /// The finished frame.
    public consuming func finished() -> [UInt8] {
        writer.patch(UInt32(writer.bytes.count - 4), at: 0)
        writer.patch(UInt32(count), at: Self.countOffset)
        return writer.bytes
    }
}
