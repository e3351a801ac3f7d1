/// A stored event as a subscriber receives it.
public struct WireEvent: Sendable, Hashable {
    /// What the event is.
    public enum Kind: UInt8, Sendable, Hashable {
        /// A value; the payload is its bytes.
        case value = 0
        /// The stream completed; the payload is empty.
        case completed = 1
        /// The stream failed; the payload is the failure's UTF-8 message.
        case failed = 2
    }

    /// The per-stream sequence number.
    public var sequence: UInt64
    /// Microseconds since the Unix epoch.
    public var timestamp: Int64
    /// What the event is.
    public var kind: Kind
    /// The value's bytes, or the failure's message.
    public var payload: [UInt8]

    /// An event.
    public init(sequence: UInt64, timestamp: Int64, kind: Kind = .value, payload: [UInt8]) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.kind = kind
        self.payload = payload
    }
}

extension WireEvent {
    func write(to writer: inout WireWriter) throws {
        writer.write(sequence)
        writer.write(timestamp)
        writer.write(kind.rawValue)
        try writer.write(bytes: payload, field: "event.payload")
    }

    init(from reader: inout WireReader) throws {
        sequence = try reader.read(UInt64.self, "event.sequence")
        timestamp = try reader.read(Int64.self, "event.timestamp")
        let rawKind = try reader.read(UInt8.self, "event.kind")
        guard let kind = Kind(rawValue: rawKind) else {
            throw ProtocolError.malformed("event.kind is \(rawKind), but must be 0...2")
        }
        self.kind = kind
        payload = try reader.readBytes("event.payload")
    }
}
