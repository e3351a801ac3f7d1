import StreamProtocol

/// One decoded frame the server sent.
public struct Received: Sendable, Equatable {
    public let requestID: UInt32
    public let message: ServerMessage

    public init(requestID: UInt32, message: ServerMessage) {
        self.requestID = requestID
        self.message = message
    }
}



public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension ServerMessage {
    public var isEvents: Bool {
        if case .events = self { return true }
        return false
    }

    public var errorCode: ErrorCode? {
        if case let .error(code, _) = self { return code }
        return nil
    }
}

