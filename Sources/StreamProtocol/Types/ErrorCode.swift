/// The error codes of `ERROR` replies (schemas/protocol.md, "Error codes").
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let malformedFrame = ErrorCode(rawValue: 1)
    public static let frameTooLarge = ErrorCode(rawValue: 2)
    public static let unknownMessage = ErrorCode(rawValue: 3)
    public static let unsupportedVersion = ErrorCode(rawValue: 4)
    public static let handshakeRequired = ErrorCode(rawValue: 5)
    public static let invalidStreamName = ErrorCode(rawValue: 10)
    public static let streamNotFound = ErrorCode(rawValue: 11)
    public static let streamExists = ErrorCode(rawValue: 12)
    public static let wrongLastSequence = ErrorCode(rawValue: 13)
    public static let invalidArgument = ErrorCode(rawValue: 14)
    public static let limitExceeded = ErrorCode(rawValue: 15)
    public static let subscriptionNotFound = ErrorCode(rawValue: 16)
    public static let subscriptionIDInUse = ErrorCode(rawValue: 17)
    public static let storageFull = ErrorCode(rawValue: 20)
    public static let storageFailure = ErrorCode(rawValue: 21)
    public static let shuttingDown = ErrorCode(rawValue: 22)
    public static let `internal` = ErrorCode(rawValue: 99)

    /// Whether the server closes the connection after sending this error.
    public var closesConnection: Bool { rawValue < 10 }

    private static let names: [UInt16: String] = [
        1: "malformed_frame", 2: "frame_too_large", 3: "unknown_message", 4: "unsupported_version",
        5: "handshake_required", 10: "invalid_stream_name", 11: "stream_not_found", 12: "stream_exists",
        13: "wrong_last_sequence", 14: "invalid_argument", 15: "limit_exceeded", 16: "subscription_not_found",
        17: "subscription_id_in_use", 20: "storage_full", 21: "storage_failure", 22: "shutting_down", 99: "internal",
    ]

    /// The code's name in the protocol document, e.g. `stream_not_found`.
    public var description: String { Self.names[rawValue] ?? "error_\(rawValue)" }
}
