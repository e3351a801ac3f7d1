import Foundation

/// A parsed JSON value that keeps booleans, integers and other numbers apart (JSONSerialization on
/// Linux does not), so a schema's types can be checked exactly.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Parses one JSON document; anything after it (but whitespace) is an error.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }

    subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case let .array(items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var int: Int64? {
        if case let .integer(value) = self { return value }
        return nil
    }

    var double: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case let .array(items) = self { return items }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case let .bool(value): "\(value)"
        case let .integer(value): "\(value)"
        case let .number(value): "\(value)"
        case let .string(value): "\"\(value)\""
        case let .array(items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case let .object(members): "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}
