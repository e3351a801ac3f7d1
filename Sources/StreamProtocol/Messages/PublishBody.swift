/// A `PUBLISH` body read where it lies: the stream name and the payload stay slices of the received
/// bytes until asked for, so a receiver that already holds the stream's name need not make it again
/// for each of a window of publishes.
///
/// A value type; not shared between threads. It shares the storage of the bytes it was read from:
/// drop it before those change, or the change copies them.
public struct PublishBody: Sendable {
    /// The stream name's UTF-8 bytes, not yet checked (`stream()` checks them).
    public let streamUTF8: ArraySlice<UInt8>
    /// Optimistic concurrency: the stream's last sequence must be this (0 = empty).
    public let expectedLastSequence: UInt64?
    /// De-duplication: a recently seen id is not stored again.
    public let messageID: String?
    /// The bytes of the event.
    public let payload: ArraySlice<UInt8>

    /// The type byte of a `PUBLISH` frame.
    public static let messageType = MessageType.publish

    /// Reads the whole body of a `PUBLISH` frame, which must end with the payload.
    public init(body: WireReader) throws {
        var reader = body
        try self.init(reading: &reader)
        try reader.expectEnd(of: "message type 0x\(String(Self.messageType, radix: 16))")
    }

    /// Reads a `PUBLISH` body, as schemas/protocol.md lays it out, from `reader`.
    public init(reading reader: inout WireReader) throws {
        streamUTF8 = try reader.readUTF8("stream")
        expectedLastSequence = try reader.readOptional("expected_last_sequence") { try $0.read(UInt64.self, "expected_last_sequence") }
        messageID = try reader.readOptional("message_id") { try $0.read(String.self, "message_id") }
        payload = try reader.readByteSlice("payload")
    }

    /// The stream's name; throws `malformed` if its bytes are not valid UTF-8.
    public func stream() throws -> String {
        try WireReader.string(streamUTF8, "stream")
    }

    /// The request as a message of its own, its payload copied.
    public func message() throws -> ClientMessage.Publish {
        ClientMessage.Publish(stream: try stream(), expectedLastSequence: expectedLastSequence, messageID: messageID, payload: Array(payload))
    }
}
