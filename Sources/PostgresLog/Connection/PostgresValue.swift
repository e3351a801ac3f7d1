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

    /// Appends the value in the binary format (integers big-endian) to `bytes`; false for NULL,
    /// which has none. Written in place, so a statement's parameters take one buffer and no more.
    func write(to bytes: inout [UInt8]) -> Bool {
        switch self {
        case .int64(let value): Self.write(value, to: &bytes)
        case .int32(let value): Self.write(value, to: &bytes)
        case .int16(let value): Self.write(value, to: &bytes)
        case .text(let value): bytes += value.utf8
        case .bytes(let value): bytes += value
        case .null: return false
        case .int64Array(let values):
            Self.writeArrayHeader(of: 20, count: values.count, to: &bytes)
            for value in values {
                Self.write(Int32(8), to: &bytes)
                Self.write(value, to: &bytes)
            }
        case .textArray(let values):
            Self.writeArrayHeader(of: 25, count: values.count, to: &bytes)
            for value in values {
                Self.write(Int32(value.utf8.count), to: &bytes)
                bytes += value.utf8
            }
        case .bytesArray(let values):
            Self.writeArrayHeader(of: 17, count: values.count, to: &bytes)
            for value in values {
                Self.write(Int32(value.count), to: &bytes)
                bytes += value
            }
        }
        return true
    }

    /// The binary array format's header: dimensions, a no-NULLs flag, the element type, the one
    /// dimension's length and lower bound; each element's length and bytes follow.
    private static func writeArrayHeader(of elementType: Oid, count: Int, to bytes: inout [UInt8]) {
        write(Int32(1), to: &bytes)
        write(Int32(0), to: &bytes)
        write(elementType, to: &bytes)
        write(Int32(count), to: &bytes)
        write(Int32(1), to: &bytes)
    }

    /// An optional integer, NULL when absent.
    static func optional(_ value: Int64?) -> PostgresValue { value.map(PostgresValue.int64) ?? .null }

    private static func write<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
