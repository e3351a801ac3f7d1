import StreamProtocol

/// The handshake and lifetime of one connection, as a pure state machine: each input returns the
/// action the session must take, so the rules are testable without threads or a log.
///
/// A value type; the session keeps it under its inbound lock.
public struct ConnectionState: Sendable {
    /// Where the connection is in its life.
    public enum Phase: Sendable, Equatable {
        /// Waiting for `HELLO`.
        case awaitingHello
        /// Welcomed with the negotiated protocol version.
        case open(version: UInt16)
        /// Closed after a fatal error or by the server; nothing more is processed.
        case closed
    }

    /// What the session does with an input.
    public enum Action: Sendable, Equatable {
        /// Handle the request (the connection is open).
        case dispatch
        /// Send this reply; the connection stays open.
        case reply(ServerMessage)
        /// Send this reply, then close the connection.
        case replyAndClose(ServerMessage)
        /// Do nothing: the connection is closed.
        case ignore
    }

    /// The current phase.
    public private(set) var phase: Phase = .awaitingHello

    private let supportedVersions: ClosedRange<UInt16>
    private let maximumFrameLength: UInt32
    private let maximumSubscriptions: UInt32
    private let serverName: String

    /// A connection that speaks `supportedVersions` and announces the given limits in `WELCOME`.
    public init(supportedVersions: ClosedRange<UInt16>, maximumFrameLength: UInt32, maximumSubscriptions: UInt32, serverName: String) {
        self.supportedVersions = supportedVersions
        self.maximumFrameLength = maximumFrameLength
        self.maximumSubscriptions = maximumSubscriptions
        self.serverName = serverName
    }

    /// Whether nothing more is processed.
    public var isClosed: Bool { phase == .closed }

    /// The protocol version agreed in the handshake; the newest before it (nothing but `HELLO` is
    /// read then).
    public var version: UInt16 {
        if case let .open(version) = phase { return version }
        return ProtocolVersions.newest
    }

    /// Whether the handshake is done and the connection takes requests.
    public var isOpen: Bool {
        if case .open = phase { return true }
        return false
    }

    private static let handshakeRequired = ServerMessage.error(
        code: .handshakeRequired, message: "the first frame must be HELLO (type 0x01); the connection is closed.")

    /// The action for a frame of type `type` before its body is read, or nil to read it and call
    /// `received(_:)`: before `HELLO` no layout is agreed, so any other request is refused unread
    /// (an unknown type is left to the reading, which names it).
    public mutating func receivedFrame(ofType type: UInt8) -> Action? {
        guard case .awaitingHello = phase, type != ClientMessage.helloType, ClientMessage.isKnownType(type) else { return nil }
        phase = .closed
        return .replyAndClose(Self.handshakeRequired)
    }

    /// The action for a decoded request.
    public mutating func received(_ message: ClientMessage) -> Action {
        switch phase {
        case .closed:
            return .ignore
        case .awaitingHello:
            guard case let .hello(minimum, maximum, _) = message else {
                phase = .closed
                return .replyAndClose(Self.handshakeRequired)
            }
            let lowest = max(minimum, supportedVersions.lowerBound), highest = min(maximum, supportedVersions.upperBound)
            guard minimum <= maximum, lowest <= highest else {
                phase = .closed
                return .replyAndClose(.error(
                    code: .unsupportedVersion,
                    message: "the client speaks protocol versions \(minimum)...\(maximum), this server \(supportedVersions.lowerBound)...\(supportedVersions.upperBound); the connection is closed."))
            }
            phase = .open(version: highest)
            return .reply(.welcome(version: highest, maxFrameLength: maximumFrameLength, maxSubscriptions: maximumSubscriptions, serverName: serverName))
        case .open:
            if case .hello = message {
                return .reply(.error(code: .invalidArgument, message: "HELLO was already received on this connection; send it once, first."))
            }
            return .dispatch
        }
    }

    /// The action for bytes that cannot be decoded: an `ERROR` with the error's code, and closing.
    public mutating func failed(_ error: ProtocolError) -> Action {
        guard phase != .closed else { return .ignore }
        phase = .closed
        return .replyAndClose(.error(code: error.code, message: error.description))
    }

    /// The action for a connection the server will not keep (a limit reached): an `ERROR` with `code`
    /// and `message`, and closing.
    public mutating func refused(_ code: ErrorCode, _ message: String) -> Action {
        guard phase != .closed else { return .ignore }
        phase = .closed
        return .replyAndClose(.error(code: code, message: message))
    }

    /// Closes the connection.
    public mutating func close() {
        phase = .closed
    }
}
