import EventLog
import StreamProtocol

/// An error a request is answered with: a wire code and a message a person can act on.
///
/// Values are Sendable.
struct ServerError: Error, Sendable, Equatable {
    let code: ErrorCode
    let message: String

    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The reply for any error thrown while handling a request.
    static func from(_ error: any Error) -> ServerError {
        switch error {
        case let error as ServerError: error
        case let error as EventLogError: from(error)
        case let error as ProtocolError: ServerError(error.code, error.description)
        default: ServerError(.internal, "unexpected error: \(error)")
        }
    }

    /// The wire code for a log error; the message is the log's own.
    static func from(_ error: EventLogError) -> ServerError {
        let code: ErrorCode
        switch error.code {
        case .invalidStreamName: code = .invalidStreamName
        case .streamNotFound: code = .streamNotFound
        case .streamExists: code = .streamExists
        case .invalidArgument, .streamEnded: code = .invalidArgument
        case .wrongLastSequence: code = .wrongLastSequence
        case .diskFull: code = .storageFull
        case .closed: code = .shuttingDown
        case .unavailable: code = .storageUnavailable
        default: code = .storageFailure
        }
        return ServerError(code, error.message)
    }

    /// The `ERROR` message for this error.
    var reply: ServerMessage { .error(code: code, message: message) }
}
