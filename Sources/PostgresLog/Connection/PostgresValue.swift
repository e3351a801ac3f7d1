import CLibPQ

/// A statement parameter, sent in PostgreSQL's binary format with its type named.
///
/// Values are immutable and Sendable.
enum PostgresValue: Sendable {
    case int64(Int64)
    case int32(Int32)
    case int16(Int16)
    case text(String)
    case bytes([UInt8])
    case null
    /// A one-dimensional array of `int8`, `text` or `bytea` (for `unnest`, `= ANY`).
    case int64Array([Int64])
    case textArray([String])
    case bytesArray([[UInt8]])

    /// The parameter type's OID (`int8`, `int4`, `int2`, `text`, `bytea`; 0 lets the server infer it).
    var type: Oid {
        switch self {
        case .int64: 20
        case .int32: 23
        case .int16: 21
        case .text: 25
        case .bytes: 17
        case .null: 0
        case .int64Array: 1016
        case .textArray: 1009
        case .bytesArray: 1001
        }
    }

    /// The value in the binary format (integers big-endian), or nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .int64(let value): Self.bigEndian(value)
        case .int32(let value): Self.bigEndian(value)
        case .int16(let value): Self.bigEndian(value)
        case .text(let value): Array(value.utf8)
        case .bytes(let value): value
        case .null: nil
        case .int64Array(let values): Self.array(of: 20, values.map { Self.bigEndian($0) })
        case .textArray(let values): Self.array(of: 25, values.map { Array($0.utf8) })
        case .bytesArray(let values): Self.array(of: 17, values)
        }
    }

    /// The binary array format: dimensions, a no-NULLs flag, the element type, the one dimension's
    /// length and lower bound, then each element's length and bytes.
    private static func array(of elementType: Oid, _ elements: [[UInt8]]) -> [UInt8] {
        var bytes = bigEndian(Int32(1)) + bigEndian(Int32(0)) + bigEndian(UInt32(elementType))
        bytes += bigEndian(Int32(elements.count)) + bigEndian(Int32(1))
        for element in elements {
            bytes += bigEndian(Int32(element.count))
            bytes += element
        }
        return bytes
    }

    /// An optional integer, NULL when absent.
    static func optional(_ value: Int64?) -> PostgresValue { value.map(PostgresValue.int64) ?? .null }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
}
