/// Unsigned LEB128 integers, as the block framing and a consumer's stored pending set write them: seven
/// bits a byte, low bits first, the high bit set on every byte but the last.
///
/// Stateless.
enum Varint {
    /// Appends `value` to `bytes`.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The integer at `offset` in `raw`, moving past it; nil when it is cut short or longer than 64 bits.
    static func read(_ raw: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count, shift < 64 {
            let byte = raw[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
