/// Appends the primitive encodings of the binary codec.
///
/// Not thread-safe; owned by one encoder.
final class ByteWriter {
    var bytes: [UInt8] = []

    func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    func writeFixed<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    func writeBlob(_ blob: [UInt8]) {
        writeVarint(UInt64(blob.count))
        bytes.append(contentsOf: blob)
    }
}
@available(*, unavailable)
extension ByteWriter: Sendable {}

/// Reads the primitive encodings of the binary codec, throwing on truncated or malformed input.
struct ByteReader {
    var bytes: ArraySlice<UInt8>

    var remaining: Int { bytes.count }

    mutating func readByte() throws -> UInt8 {
        guard let byte = bytes.popFirst() else { throw BinaryCodecError.truncated }
        return byte
    }

    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw BinaryCodecError.malformed("a varint longer than 10 bytes") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func readSigned() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func readFixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count >= size else { throw BinaryCodecError.truncated }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { target in
            target.copyBytes(from: bytes.prefix(size))
        }
        bytes = bytes.dropFirst(size)
        return T(littleEndian: value)
    }

    mutating func readCount() throws -> Int {
        let count = try readVarint()
        guard count <= UInt64(bytes.count) else {
            throw BinaryCodecError.malformed("a length of \(count) bytes with only \(bytes.count) left")
        }
        return Int(count)
    }

    mutating func readSlice() throws -> ArraySlice<UInt8> {
        let count = try readCount()
        defer { bytes = bytes.dropFirst(count) }
        return bytes.prefix(count)
    }

    mutating func readString() throws -> String {
        let slice = try readSlice()
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw BinaryCodecError.malformed("a string that is not valid UTF-8")
        }
        return string
    }
}

/// What can go wrong reading the binary form.
public enum BinaryCodecError: Error, Sendable, CustomStringConvertible {
    /// The bytes ended in the middle of a value.
    case truncated
    /// The bytes are not in the binary codec's form; the text says where.
    case malformed(String)

    /// What is wrong, for a log line or an error report.
    public var description: String {
        switch self {
        case .truncated: "binary event data ends in the middle of a value: the stored event is incomplete"
        case let .malformed(what): "binary event data is malformed: \(what)"
        }
    }
}
