/// Values in a compact, self-delimiting binary form built on `Codable`.
///
/// The form: integers as zig-zag / unsigned LEB128 varints, floating point as little-endian IEEE 754,
/// strings as a varint byte count and UTF-8, `nil` as a marker byte. A keyed container is a varint
/// count of entries, each a key (string) and a length-prefixed value; an unkeyed container is a varint
/// count of length-prefixed elements. Length prefixes let a decoder skip what it does not ask for, so a
/// type may add optional fields and still read older values. Keys are kept (not positions) so that
/// `encodeIfPresent` and reordered properties decode correctly; zlib block compression in the log
/// removes their repetition.
///
/// Thread-safe: each call builds its own encoder or decoder.
public struct BinaryEventCodec: EventCodec {
    /// `binary1`: the form described above, version 1.
    public var name: String { "binary1" }

    /// The binary codec.
    public init() {}

    /// The value in the binary form.
    public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = BinaryValueEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage.bytes
    }

    /// The value the bytes stand for; throws `BinaryCodecError` on malformed input.
    public func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value {
        try Value(from: BinaryValueDecoder(reader: ByteReader(bytes: Array(bytes)[...]), codingPath: []))
    }
}
