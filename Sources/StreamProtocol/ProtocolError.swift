/// What is wrong with bytes received or a message to be sent: every case names the field or limit.
public enum ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A body does not match its layout.
    case malformed(String)
    /// A frame announces more bytes than the receiver accepts.
    case frameTooLarge(length: Int, maximum: Int)
    /// A frame of a type this version does not know.
    case unknownMessageType(UInt8)
    /// A value too long for its wire field, found while encoding.
    case valueTooLong(field: String, length: Int, maximum: Int)

    /// The wire error code a server answers this with.
    public var code: ErrorCode {
        switch self {
        case .malformed, .valueTooLong: .malformedFrame
        case .frameTooLarge: .frameTooLarge
        case .unknownMessageType: .unknownMessage
        }
    }

    public var description: String {
        switch self {
        case let .malformed(what):
            "malformed frame: \(what)"
        case let .frameTooLarge(length, maximum):
            "frame of \(length) bytes exceeds the maximum of \(maximum) bytes; send smaller batches"
        case let .unknownMessageType(type):
            "unknown message type 0x\(String(type, radix: 16)); check the client speaks protocol version 1"
        case let .valueTooLong(field, length, maximum):
            "\(field) is \(length) bytes long, more than the \(maximum) its wire field holds"
        }
    }
}
