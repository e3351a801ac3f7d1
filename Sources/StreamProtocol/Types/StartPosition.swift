/// Where a subscription starts reading a stream.
///
/// The cases are the protocol's: a new one comes with a new protocol version.
public enum StartPosition: Sendable, Hashable {
    /// The stream's default replay policy.
    case streamDefault
    /// Every retained event.
    case all
    /// The last `count` events.
    case last(UInt64)
    /// From this sequence number, inclusive.
    case fromSequence(UInt64)
    /// Events at or after this time, in microseconds since the Unix epoch.
    case since(microseconds: Int64)
    /// Only events published after subscribing.
    case newOnly
}

extension StartPosition {
    func write(to writer: inout WireWriter) {
        switch self {
        case .streamDefault: writer.write(UInt8(0))
        case .all: writer.write(UInt8(1))
        case let .last(count):
            writer.write(UInt8(2))
            writer.write(count)
        case let .fromSequence(sequence):
            writer.write(UInt8(3))
            writer.write(sequence)
        case let .since(microseconds):
            writer.write(UInt8(4))
            writer.write(microseconds)
        case .newOnly: writer.write(UInt8(5))
        }
    }

    init(from reader: inout WireReader, _ field: String) throws {
        switch try reader.read(UInt8.self, "\(field).kind") {
        case 0: self = .streamDefault
        case 1: self = .all
        case 2: self = .last(try reader.read(UInt64.self, "\(field).count"))
        case 3: self = .fromSequence(try reader.read(UInt64.self, "\(field).sequence"))
        case 4: self = .since(microseconds: try reader.read(Int64.self, "\(field).time"))
        case 5: self = .newOnly
        case let other: throw ProtocolError.malformed("\(field).kind is \(other), but must be 0...5")
        }
    }
}
