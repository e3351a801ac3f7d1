/// Appends values in the protocol's primitive encodings (big-endian; see schemas/protocol.md).
///
/// A value type; not shared between threads.
public struct WireWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    /// The protocol version agreed with the peer: values whose layout grew write the layout it reads.
    public var version: UInt16

    /// An empty writer with room for `capacity` bytes, writing for a peer that speaks `version`.
    public init(capacity: Int = 64, version: UInt16 = ProtocolVersions.newest) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.version = version
    }

    /// Writes a `u8`.
    public mutating func write(_ value: UInt8) { bytes.append(value) }
    /// Writes a `u16`.
    public mutating func write(_ value: UInt16) { writeInteger(value) }
    /// Writes a `u32`.
    public mutating func write(_ value: UInt32) { writeInteger(value) }
    /// Writes a `u64`.
    public mutating func write(_ value: UInt64) { writeInteger(value) }
    /// Writes a `i64`.
    public mutating func write(_ value: Int64) { writeInteger(value) }
    /// Writes a `bool`.
    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Writes a `str`: a u16 byte count and UTF-8.
    public mutating func write(_ value: String, field: String) throws {
        var value = value
        try value.withUTF8 { utf8 in
            guard utf8.count <= Int(UInt16.max) else {
                throw ProtocolError.valueTooLong(field: field, length: utf8.count, maximum: Int(UInt16.max))
            }
            writeInteger(UInt16(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes `bytes`: a u32 byte count and the bytes.
    public mutating func write(bytes value: some Collection<UInt8>, field: String) throws {
        guard value.count <= Int(UInt32.max) else {
            throw ProtocolError.valueTooLong(field: field, length: value.count, maximum: Int(UInt32.max))
        }
        writeInteger(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// Writes an `opt<T>`: a presence byte, then the value if present.
    public mutating func writeOptional<T>(_ value: T?, _ writeValue: (inout WireWriter, T) throws -> Void) rethrows {
        guard let value else { return write(UInt8(0)) }
        write(UInt8(1))
        try writeValue(&self, value)
    }

    /// Drops everything written after the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Overwrites four bytes at `offset` with `value`, big-endian: used to fill in a frame's length.
    mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.bigEndian) { source in
            for index in 0..<4 { bytes[offset + index] = source[index] }
        }
    }

    private mutating func writeInteger<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
