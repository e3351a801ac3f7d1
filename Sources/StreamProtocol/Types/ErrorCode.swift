/// The error codes of `ERROR` replies (schemas/protocol.md, "Error codes").
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code on the wire.
    public let rawValue: UInt16

    /// The code with this wire value, known or not.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// A body does not match its layout; the connection closes.
    public static let malformedFrame = ErrorCode(rawValue: 1)
    /// A frame's length exceeds the maximum; the connection closes.
    public static let frameTooLarge = ErrorCode(rawValue: 2)
    /// An unknown message type; the connection closes.
    public static let unknownMessage = ErrorCode(rawValue: 3)
    /// No protocol version both sides speak; the connection closes.
    public static let unsupportedVersion = ErrorCode(rawValue: 4)
    /// The first frame was not `HELLO`; the connection closes.
    public static let handshakeRequired = ErrorCode(rawValue: 5)
    /// The stream name breaks the naming rules.
    public static let invalidStreamName = ErrorCode(rawValue: 10)
    /// No stream of that name.
    public static let streamNotFound = ErrorCode(rawValue: 11)
    /// `CREATE_STREAM` of a name in use with another policy.
    public static let streamExists = ErrorCode(rawValue: 12)
    /// `expected_last_sequence` did not match the stream's last sequence.
    public static let wrongLastSequence = ErrorCode(rawValue: 13)
    /// A value out of range.
    public static let invalidArgument = ErrorCode(rawValue: 14)
    /// Too many subscriptions or streams.
    public static let limitExceeded = ErrorCode(rawValue: 15)
    /// `CREDIT` or `UNSUBSCRIBE` of an unknown subscription id.
    public static let subscriptionNotFound = ErrorCode(rawValue: 16)
    /// `SUBSCRIBE` with an id already live on the connection.
    public static let subscriptionIDInUse = ErrorCode(rawValue: 17)
    /// No durable consumer of that name on the stream.
    public static let consumerNotFound = ErrorCode(rawValue: 18)
    /// `ADD_CONSUMER` of a name in use with another configuration.
    public static let consumerExists = ErrorCode(rawValue: 19)
    /// The disk or database is full; nothing of the request was stored.
    public static let storageFull = ErrorCode(rawValue: 20)
    /// The log failed; the message names the cause.
    public static let storageFailure = ErrorCode(rawValue: 21)
    /// The server is stopping; reconnect later.
    public static let shuttingDown = ErrorCode(rawValue: 22)
    /// The client's user may not do this to this stream; the message names the user, stream and right.
    public static let permissionDenied = ErrorCode(rawValue: 23)
    /// The database cannot be reached just now (a PostgreSQL failover or restart): retry. Nothing of
    /// the request was done, unless the message says a publish may have been stored.
    public static let storageUnavailable = ErrorCode(rawValue: 24)
    /// A bug; the message says what failed.
    public static let `internal` = ErrorCode(rawValue: 99)

    /// Whether the server closes the connection after sending this error.
    public var closesConnection: Bool { rawValue < 10 }

    private static let names: [UInt16: String] = [
        1: "malformed_frame", 2: "frame_too_large", 3: "unknown_message", 4: "unsupported_version",
        5: "handshake_required", 10: "invalid_stream_name", 11: "stream_not_found", 12: "stream_exists",
        13: "wrong_last_sequence", 14: "invalid_argument", 15: "limit_exceeded", 16: "subscription_not_found",
        17: "subscription_id_in_use", 18: "consumer_not_found", 19: "consumer_exists", 20: "storage_full", 21: "storage_failure", 22: "shutting_down",
        23: "permission_denied", 24: "storage_unavailable", 99: "internal",
    ]

    /// The code's name in the protocol document, e.g. `stream_not_found`.
    public var description: String { Self.names[rawValue] ?? "error_\(rawValue)" }
}
