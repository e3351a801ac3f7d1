/// Which events a truncation removes.
public enum Truncation: Sendable, Hashable {
    /// Every event with a sequence number below this one.
    case beforeSequence(UInt64)
    /// All but the last `count` events.
    case keepLast(UInt64)
    /// Every event older than this time, in microseconds since the Unix epoch.
    case olderThan(microseconds: Int64)
}

extension Truncation {
    func write(to writer: inout WireWriter) {
        switch self {
        case let .beforeSequence(sequence):
            writer.write(UInt8(0))
            writer.write(sequence)
        case let .keepLast(count):
            writer.write(UInt8(1))
            writer.write(count)
        case let .olderThan(microseconds):
            writer.write(UInt8(2))
            writer.write(microseconds)
        }
    }

    init(from reader: inout WireReader) throws {
        switch try reader.read(UInt8.self, "truncation.kind") {
        case 0: self = .beforeSequence(try reader.read(UInt64.self, "truncation.sequence"))
        case 1: self = .keepLast(try reader.read(UInt64.self, "truncation.count"))
        case 2: self = .olderThan(microseconds: try reader.read(Int64.self, "truncation.time"))
        case let other: throw ProtocolError.malformed("truncation.kind is \(other), but must be 0...2")
        }
    }
}
