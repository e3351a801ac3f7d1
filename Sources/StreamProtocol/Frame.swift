/// One frame: a typed, length-prefixed unit of the protocol, carrying the request it belongs to.
public struct Frame: Sendable, Equatable {
    /// Bytes of the header after the length field: type, flags, request id.
    public static let headerLength = 6

    /// The maximum frame length a receiver accepts unless it says otherwise: 16 MiB.
    public static let defaultMaximumLength = 16 * 1024 * 1024

    /// The message type.
    public var type: UInt8
    /// Reserved flags; 0 in version 1.
    public var flags: UInt8
    /// The request this frame starts or answers; 0 for frames the server sends on its own.
    public var requestID: UInt32
    /// The message body.
    public var body: [UInt8]

    /// A frame.
    public init(type: UInt8, flags: UInt8 = 0, requestID: UInt32, body: [UInt8]) {
        self.type = type
        self.flags = flags
        self.requestID = requestID
        self.body = body
    }

    /// The frame's bytes on the wire, length prefix included.
    public var encoded: [UInt8] {
        var writer = WireWriter(capacity: 4 + Self.headerLength + body.count)
        writer.write(UInt32(Self.headerLength + body.count))
        writer.write(type)
        writer.write(flags)
        writer.write(requestID)
        return writer.bytes + body
    }

    /// Appends a frame whose body `writeBody` writes to what `writer` holds already; if `writeBody`
    /// throws, `writer` is left as it was.
    public static func encode(
        type: UInt8, requestID: UInt32, into writer: inout WireWriter, _ writeBody: (inout WireWriter) throws -> Void
    ) rethrows {
        let start = writer.bytes.count
        writer.write(UInt32(0))
        writer.write(type)
        writer.write(UInt8(0))
        writer.write(requestID)
        do {
            try writeBody(&writer)
        } catch {
            writer.truncate(to: start)
            throw error
        }
        writer.patch(UInt32(writer.bytes.count - start - 4), at: start)
    }
}
