/// Reads values in the protocol's primitive encodings, throwing `ProtocolError.malformed` naming the
/// field on anything short or invalid.
///
/// A value type; not shared between threads.
public struct WireReader: Sendable {
    private var bytes: ArraySlice<UInt8>
    /// The protocol version agreed with the peer: values whose layout grew read the layout it writes.
    public var version: UInt16

    /// A reader over `bytes`, written by a peer that speaks `version`.
    public init(_ bytes: ArraySlice<UInt8>, version: UInt16 = ProtocolVersions.newest) {
        self.bytes = bytes
        self.version = version
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { bytes.isEmpty }

    /// How many bytes are not read yet.
    public var remaining: Int { bytes.count }

    /// The bytes not read yet, copied.
    public var remainingBytes: [UInt8] { Array(bytes) }

    /// Throws unless every byte has been read: a body must be consumed exactly.
    public func expectEnd(of message: @autoclosure () -> String) throws {
        guard bytes.isEmpty else {
            throw ProtocolError.malformed("\(bytes.count) unexpected bytes after the body of \(message())")
        }
    }

    /// Reads a `u8`; `field` names it in errors.
    public mutating func read(_: UInt8.Type, _ field: String) throws -> UInt8 {
        guard let byte = bytes.popFirst() else { throw short(field, needed: 1) }
        return byte
    }

    /// Reads a `u16`; `field` names it in errors.
    public mutating func read(_: UInt16.Type, _ field: String) throws -> UInt16 { try readInteger(field) }
    /// Reads a `u32`; `field` names it in errors.
    public mutating func read(_: UInt32.Type, _ field: String) throws -> UInt32 { try readInteger(field) }
    /// Reads a `u64`; `field` names it in errors.
    public mutating func read(_: UInt64.Type, _ field: String) throws -> UInt64 { try readInteger(field) }
    /// Reads a `i64`; `field` names it in errors.
    public mutating func read(_: Int64.Type, _ field: String) throws -> Int64 { try readInteger(field) }

    /// Reads a `bool`; `field` names it in errors.
    public mutating func read(_: Bool.Type, _ field: String) throws -> Bool {
        switch try read(UInt8.self, field) {
        case 0: return false
        case 1: return true
        case let other: throw ProtocolError.malformed("\(field) is \(other), but a bool is 0 or 1")
        }
    }

    /// Reads a `str`.
    public mutating func read(_: String.Type, _ field: String) throws -> String {
        try Self.string(try readUTF8(field), field)
    }

    /// Reads a `str` without decoding it: its UTF-8 bytes, not yet checked (see `string(_:_:)`).
    public mutating func readUTF8(_ field: String) throws -> ArraySlice<UInt8> {
        let count = Int(try read(UInt16.self, field))
        return try take(count, field)
    }

    /// The text of the UTF-8 bytes of `field`; throws if they are not valid UTF-8.
    public static func string(_ utf8: ArraySlice<UInt8>, _ field: String) throws -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw ProtocolError.malformed("\(field) is not valid UTF-8")
        }
        return string
    }

    /// Reads `bytes`.
    public mutating func readBytes(_ field: String) throws -> [UInt8] {
        Array(try readByteSlice(field))
    }

    /// Reads `bytes` without copying them out of the buffer being read.
    public mutating func readByteSlice(_ field: String) throws -> ArraySlice<UInt8> {
        let count = Int(try read(UInt32.self, field))
        return try take(count, field)
    }

    /// Reads an `opt<T>`.
    public mutating func readOptional<T>(_ field: String, _ readValue: (inout WireReader) throws -> T) throws -> T? {
        switch try read(UInt8.self, field) {
        case 0: return nil
        case 1: return try readValue(&self)
        case let other: throw ProtocolError.malformed("\(field) has presence byte \(other), but it must be 0 or 1")
        }
    }

    private mutating func take(_ count: Int, _ field: String) throws -> ArraySlice<UInt8> {
        guard bytes.count >= count else { throw short(field, needed: count) }
        defer { bytes = bytes.dropFirst(count) }
        return bytes.prefix(count)
    }

    private mutating func readInteger<T: FixedWidthInteger>(_ field: String) throws -> T {
        let size = MemoryLayout<T>.size
        let raw = try take(size, field)
        return raw.reduce(T.zero) { ($0 << 8) | T(truncatingIfNeeded: $1) }
    }

    private func short(_ field: String, needed: Int) -> ProtocolError {
        .malformed("the body ends inside \(field): \(needed) bytes needed, \(bytes.count) left")
    }
}
