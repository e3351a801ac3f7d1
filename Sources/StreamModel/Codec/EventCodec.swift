import Foundation

/// Turns the values of a persistent stream into stored bytes and back.
///
/// Implementations must be thread-safe: one codec serves every subject and reader of a log.
public protocol EventCodec: Sendable {
    /// A short stable name recorded with the stream, so a reader can tell which codec wrote it.
    var name: String { get }

    /// The bytes that stand for `value`.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8]

    /// The value that `bytes` stand for.
    func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value
}

extension EventCodec where Self == JSONEventCodec {
    /// JSON, readable by any tool: the default.
    public static var json: JSONEventCodec { JSONEventCodec() }
}

extension EventCodec where Self == BinaryEventCodec {
    /// A compact binary form: smaller and faster than JSON, readable only through this codec.
    public static var binary: BinaryEventCodec { BinaryEventCodec() }
}

/// Values as JSON, with sorted keys so equal values give equal bytes.
///
/// Thread-safe: each call uses its own encoder or decoder.
public struct JSONEventCodec: EventCodec {
    /// `json`.
    public var name: String { "json" }

    /// The JSON codec.
    public init() {}

    /// The value as JSON with sorted keys.
    public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// The value the JSON stands for.
    public func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
