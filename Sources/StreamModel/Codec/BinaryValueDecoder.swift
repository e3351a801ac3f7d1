/// The `Decoder` of the binary codec: reads what `BinaryValueEncoder` wrote.
///
/// Not thread-safe; one per decoding.
struct BinaryValueDecoder: Decoder {
    let reader: ByteReader
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var reader = reader
        let count = try reader.readCount()
        var entries: [String: ArraySlice<UInt8>] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.readString()
            entries[key] = try reader.readSlice()
        }
        return KeyedDecodingContainer(KeyedBinaryDecodingContainer<Key>(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var reader = reader
        let count = try reader.readCount()
        return UnkeyedBinaryDecodingContainer(reader: reader, count: count, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleBinaryDecodingContainer(reader: reader, codingPath: codingPath)
    }
}

struct SingleBinaryDecodingContainer: SingleValueDecodingContainer {
    let reader: ByteReader
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { reader.remaining == 0 }

    func decode(_: Bool.Type) throws -> Bool {
        var reader = reader
        return switch try reader.readByte() {
        case 0: false
        case 1: true
        case let byte: throw BinaryCodecError.malformed("\(byte) where a Bool (0 or 1) was expected at \(path)")
        }
    }

    func decode(_: String.Type) throws -> String {
        var reader = reader
        return try reader.readString()
    }
    func decode(_: Double.Type) throws -> Double {
        var reader = reader
        return Double(bitPattern: try reader.readFixed(UInt64.self))
    }
    func decode(_: Float.Type) throws -> Float {
        var reader = reader
        return Float(bitPattern: try reader.readFixed(UInt32.self))
    }
    func decode(_: Int.Type) throws -> Int { try signed() }
    func decode(_: Int8.Type) throws -> Int8 { try signed() }
    func decode(_: Int16.Type) throws -> Int16 { try signed() }
    func decode(_: Int32.Type) throws -> Int32 { try signed() }
    func decode(_: Int64.Type) throws -> Int64 { try signed() }
    func decode(_: UInt.Type) throws -> UInt { try unsigned() }
    func decode(_: UInt8.Type) throws -> UInt8 { try unsigned() }
    func decode(_: UInt16.Type) throws -> UInt16 { try unsigned() }
    func decode(_: UInt32.Type) throws -> UInt32 { try unsigned() }
    func decode(_: UInt64.Type) throws -> UInt64 { try unsigned() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: BinaryValueDecoder(reader: reader, codingPath: codingPath))
    }

    private var path: String { codingPath.map(\.stringValue).joined(separator: ".") }

    private func signed<T: FixedWidthInteger>() throws -> T {
        var reader = reader
        let value = try reader.readSigned()
        guard let exact = T(exactly: value) else {
            throw BinaryCodecError.malformed("\(value) does not fit \(T.self) at \(path)")
        }
        return exact
    }

    private func unsigned<T: FixedWidthInteger>() throws -> T {
        var reader = reader
        let value = try reader.readVarint()
        guard let exact = T(exactly: value) else {
            throw BinaryCodecError.malformed("\(value) does not fit \(T.self) at \(path)")
        }
        return exact
    }
}

struct KeyedBinaryDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [String: ArraySlice<UInt8>]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> BinaryValueDecoder {
        guard let bytes = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return BinaryValueDecoder(reader: ByteReader(bytes: bytes), codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { entries[key.stringValue]?.isEmpty ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let single = try decoder(for: key).singleValueContainer()
        return try single.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let bytes = entries["super"] else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no super value"))
        }
        return BinaryValueDecoder(reader: ByteReader(bytes: bytes), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

struct UnkeyedBinaryDecodingContainer: UnkeyedDecodingContainer {
    var reader: ByteReader
    let count: Int?
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(reader: ByteReader, count: Int, codingPath: [any CodingKey]) {
        self.reader = reader
        self.count = count
        self.codingPath = codingPath
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func next() throws -> BinaryValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no element \(currentIndex)"))
        }
        currentIndex += 1
        return BinaryValueDecoder(reader: ByteReader(bytes: try reader.readSlice()), codingPath: codingPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        var lookahead = reader
        guard try lookahead.readSlice().isEmpty else { return false }
        reader = lookahead
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let single = try next().singleValueContainer()
        return try single.decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
