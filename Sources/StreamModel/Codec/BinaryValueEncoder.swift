/// One value being encoded: filled by the containers Codable asks for, serialized when encoding ends.
///
/// Not thread-safe; owned by one encoding.
final class EncodingNode {
    enum Content {
        case empty
        case primitive(ByteWriter)
        case keyed([(key: String, node: EncodingNode)])
        case unkeyed([EncodingNode])
    }

    var content = Content.empty

    /// Writes this value's bytes. `nil` and an unfilled value write nothing: an element's empty length
    /// prefix is how the form says `nil`.
    func serialize(into writer: ByteWriter) {
        switch content {
        case .empty:
            break
        case let .primitive(bytes):
            writer.bytes.append(contentsOf: bytes.bytes)
        case let .keyed(entries):
            writer.writeVarint(UInt64(entries.count))
            for entry in entries {
                writer.writeString(entry.key)
                writer.writeElement(entry.node)
            }
        case let .unkeyed(elements):
            writer.writeVarint(UInt64(elements.count))
            for element in elements { writer.writeElement(element) }
        }
    }

    func primitiveWriter() -> ByteWriter {
        if case let .primitive(writer) = content { return writer }
        let writer = ByteWriter()
        content = .primitive(writer)
        return writer
    }

    func appendKeyed(_ key: String) -> EncodingNode {
        let child = EncodingNode()
        var entries: [(key: String, node: EncodingNode)] = []
        if case let .keyed(existing) = content { entries = existing }
        content = .empty // drop the second reference so the append below does not copy
        entries.removeAll { $0.key == key }
        entries.append((key, child))
        content = .keyed(entries)
        return child
    }

    func appendUnkeyed() -> EncodingNode {
        let child = EncodingNode()
        var elements: [EncodingNode] = []
        if case let .unkeyed(existing) = content { elements = existing }
        content = .empty // drop the second reference so the append below does not copy
        elements.append(child)
        content = .unkeyed(elements)
        return child
    }

    func markKeyed() { if case .empty = content { content = .keyed([]) } }
    func markUnkeyed() { if case .empty = content { content = .unkeyed([]) } }
}
@available(*, unavailable)
extension EncodingNode: Sendable {}

extension ByteWriter {
    func writeElement(_ node: EncodingNode) {
        let element = ByteWriter()
        node.serialize(into: element)
        writeBlob(element.bytes)
    }
}

/// The `Encoder` of the binary codec.
///
/// Not thread-safe; one per encoding.
final class BinaryValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: EncodingNode = EncodingNode(), codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    /// The finished bytes of the value encoded so far.
    var storage: ByteWriter {
        let writer = ByteWriter()
        node.serialize(into: writer)
        return writer
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        node.markKeyed()
        return KeyedEncodingContainer(KeyedBinaryEncodingContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.markUnkeyed()
        return UnkeyedBinaryEncodingContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleBinaryEncodingContainer(node: node, codingPath: codingPath)
    }
}
@available(*, unavailable)
extension BinaryValueEncoder: Sendable {}

struct SingleBinaryEncodingContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .empty }
    mutating func encode(_ value: Bool) throws { node.primitiveWriter().bytes.append(value ? 1 : 0) }
    mutating func encode(_ value: String) throws { node.primitiveWriter().writeString(value) }
    mutating func encode(_ value: Double) throws { node.primitiveWriter().writeFixed(value.bitPattern) }
    mutating func encode(_ value: Float) throws { node.primitiveWriter().writeFixed(value.bitPattern) }
    mutating func encode(_ value: Int) throws { node.primitiveWriter().writeSigned(Int64(value)) }
    mutating func encode(_ value: Int8) throws { node.primitiveWriter().writeSigned(Int64(value)) }
    mutating func encode(_ value: Int16) throws { node.primitiveWriter().writeSigned(Int64(value)) }
    mutating func encode(_ value: Int32) throws { node.primitiveWriter().writeSigned(Int64(value)) }
    mutating func encode(_ value: Int64) throws { node.primitiveWriter().writeSigned(value) }
    mutating func encode(_ value: UInt) throws { node.primitiveWriter().writeVarint(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { node.primitiveWriter().writeVarint(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { node.primitiveWriter().writeVarint(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { node.primitiveWriter().writeVarint(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { node.primitiveWriter().writeVarint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: BinaryValueEncoder(node: node, codingPath: codingPath))
    }
}

struct KeyedBinaryEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func single(_ key: Key) -> SingleBinaryEncodingContainer {
        SingleBinaryEncodingContainer(node: node.appendKeyed(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) throws { var c = single(key); try c.encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { var c = single(key); try c.encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { var c = single(key); try c.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        BinaryValueEncoder(node: node.appendKeyed(key.stringValue), codingPath: codingPath + [key])
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        BinaryValueEncoder(node: node.appendKeyed(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        BinaryValueEncoder(node: node.appendKeyed("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        BinaryValueEncoder(node: node.appendKeyed(key.stringValue), codingPath: codingPath + [key])
    }
}

struct UnkeyedBinaryEncodingContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case let .unkeyed(elements) = node.content { return elements.count }
        return 0
    }

    private func element() -> BinaryValueEncoder {
        BinaryValueEncoder(node: node.appendUnkeyed(), codingPath: codingPath)
    }

    mutating func encodeNil() throws { _ = node.appendUnkeyed() }
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: element()) }
    mutating func encode(_ value: Bool) throws { var c = element().singleValueContainer(); try c.encode(value) }
    mutating func encode(_ value: String) throws { var c = element().singleValueContainer(); try c.encode(value) }
    mutating func encode(_ value: Double) throws { var c = element().singleValueContainer(); try c.encode(value) }
    mutating func encode(_ value: Int) throws { var c = element().singleValueContainer(); try c.encode(value) }
    mutating func encode(_ value: Int64) throws { var c = element().singleValueContainer(); try c.encode(value) }
    mutating func encode(_ value: UInt8) throws { var c = element().singleValueContainer(); try c.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        element().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { element().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { element() }
}
