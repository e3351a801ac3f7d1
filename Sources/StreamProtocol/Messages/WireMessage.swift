/// What client and server messages share: a type byte, a body layout, and the frame around them.
public protocol WireMessage: Sendable {
    /// The message type byte.
    var type: UInt8 { get }
    /// Roughly how many body bytes to reserve, so large payloads are not copied while growing.
    var payloadSizeHint: Int { get }
    /// Writes the body, as schemas/protocol.md lays it out.
    func writeBody(to writer: inout WireWriter) throws
    /// Reads the body of a message of type `type`.
    static func readBody(type: UInt8, from reader: inout WireReader) throws -> Self
}

extension WireMessage {
    /// This message as a frame's bytes, for a peer that speaks protocol `version`.
    public func encoded(requestID: UInt32, version: UInt16 = ProtocolVersions.newest) throws -> [UInt8] {
        var writer = WireWriter(capacity: 64 + payloadSizeHint, version: version)
        try encode(requestID: requestID, into: &writer)
        return writer.bytes
    }

    /// Appends this message as a frame's bytes to `writer` (several frames then make one buffer), in
    /// the layout of the writer's version.
    public func encode(requestID: UInt32, into writer: inout WireWriter) throws {
        try Frame.encode(type: type, requestID: requestID, into: &writer) { writer in
            try writeBody(to: &writer)
        }
    }

    /// The message a frame from a peer speaking protocol `version` carries; the body must be consumed
    /// exactly.
    public init(_ frame: Frame, version: UInt16 = ProtocolVersions.newest) throws {
        try self.init(type: frame.type, body: WireReader(frame.body[...], version: version))
    }

    /// The message of type `type` whose body `body` reads, in the layout of the reader's version; the
    /// body must be consumed exactly.
    public init(type: UInt8, body: WireReader) throws {
        var reader = body
        self = try Self.readBody(type: type, from: &reader)
        try reader.expectEnd(of: "message type 0x\(String(type, radix: 16))")
    }
}
