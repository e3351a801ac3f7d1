/// Cuts a byte stream into frames, however the bytes arrive: whole, one at a time, or in random pieces.
///
/// A frame whose length field exceeds `maximumLength` is rejected as soon as its 4-byte length has
/// arrived, before any of its body is buffered, so a hostile length cannot make the receiver allocate.
/// After an error the decoder is unusable: the stream has lost its framing and must be closed.
///
/// A value type; not shared between threads.
public struct FrameDecoder: Sendable {
    /// The largest frame length accepted.
    public let maximumLength: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0

    /// A decoder accepting frames up to `maximumLength` bytes (after the length field).
    public init(maximumLength: Int = Frame.defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The bytes the decoder's buffer takes in memory (its capacity), what a server counts against
    /// the budget of frames not yet complete.
    public var heldByteCount: Int { buffer.capacity }

    /// Adds received bytes.
    ///
    /// The buffer grows no further than the end of the frame being received, and a large buffer
    /// whose frames were all returned is let go, so a connection holds at most about its largest
    /// unfinished frame, and only while it is unfinished.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if readIndex > 0, readIndex == buffer.count {
            if buffer.capacity > Self.keptCapacity { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            readIndex = 0
        } else if readIndex > 0, readIndex >= buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        let needed = buffer.count + bytes.underestimatedCount
        if needed > buffer.capacity, let frameEnd = currentFrameEnd, needed <= frameEnd {
            buffer.reserveCapacity(min(frameEnd, max(needed, buffer.capacity * 2)))
        }
        buffer.append(contentsOf: bytes)
    }

    /// Lets go of every byte held; the decoder must not be used after this.
    public mutating func release() {
        buffer = []
        readIndex = 0
    }

    /// A buffer up to this size is kept for the next frames once empty; a larger one is let go.
    public static let keptCapacity = 64 * 1024

    /// Where in the buffer the frame being received ends, once its length field has arrived.
    private var currentFrameEnd: Int? {
        guard bufferedByteCount >= 4 else { return nil }
        let length = buffer[readIndex..<readIndex + 4].reduce(0) { ($0 << 8) | Int($1) }
        guard length <= maximumLength else { return nil }
        return readIndex + 4 + length
    }

    /// The next whole frame, or `nil` until more bytes arrive.
    public mutating func next() throws -> Frame? {
        guard let (type, requestID, body) = try nextBody() else { return nil }
        return Frame(type: type, requestID: requestID, body: body.remainingBytes)
    }

    /// The next whole frame's type and request id, and a reader over its body where the decoder keeps
    /// it (no copy); `nil` until more bytes arrive. Drop the reader before appending more bytes, or the
    /// append copies the decoder's buffer.
    public mutating func nextBody() throws -> (type: UInt8, requestID: UInt32, body: WireReader)? {
        guard bufferedByteCount >= 4 else { return nil }
        let length = buffer[readIndex..<readIndex + 4].reduce(0) { ($0 << 8) | Int($1) }
        guard length >= Frame.headerLength else {
            throw ProtocolError.malformed("frame length \(length) is shorter than the \(Frame.headerLength)-byte header")
        }
        guard length <= maximumLength else {
            throw ProtocolError.frameTooLarge(length: length, maximum: maximumLength)
        }
        guard bufferedByteCount >= 4 + length else { return nil }
        let start = readIndex + 4
        var header = WireReader(buffer[start..<start + Frame.headerLength])
        let type = try header.read(UInt8.self, "type")
        let flags = try header.read(UInt8.self, "flags")
        let requestID = try header.read(UInt32.self, "request_id")
        readIndex = start + length
        guard flags == 0 else {
            throw ProtocolError.malformed("flags are 0x\(String(flags, radix: 16)), but must be 0 in version 1")
        }
        return (type, requestID, WireReader(buffer[(start + Frame.headerLength)..<(start + length)]))
    }
}
