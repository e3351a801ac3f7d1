extension StartPosition {
    /// The wire form: a kind byte, then the kind's argument (see `schemas/protocol.md`). The cases are
    /// the protocol's: a new one comes with a new protocol version.
    func write(to writer: inout WireWriter) {
        writer.write(kind)
        switch self {
        case let .last(count): writer.write(count)
        case let .from(sequence): writer.write(sequence)
        case let .since(microseconds): writer.write(microseconds)
        case .streamDefault, .all, .newOnly: break
        }
    }

    init(from reader: inout WireReader, _ field: String) throws {
        switch try reader.read(UInt8.self, "\(field).kind") {
        case 0: self = .streamDefault
        case 1: self = .all
        case 2: self = .last(try reader.read(UInt64.self, "\(field).count"))
        case 3: self = .from(sequence: try reader.read(UInt64.self, "\(field).sequence"))
        case 4: self = .since(microseconds: try reader.read(Int64.self, "\(field).time"))
        case 5: self = .newOnly
        case let other: throw ProtocolError.malformed("\(field).kind is \(other), but must be 0...5")
        }
    }
}
