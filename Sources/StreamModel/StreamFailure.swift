/// How a persistent stream failed, as its observers see it: a failure stored in the log, or a failure
/// of the log itself.
///
/// A failure that crosses a process boundary can only come back as its message, so a persistent
/// stream's failure type is this one: failures sent into it are stored as their description.
///
/// Its door: the signals and producers of persistent and remote subjects (`PersistentReplaySubject`,
/// `RemoteReplaySubject`) fail with this and nothing else. A stored failure is `.stored`; a failure of
/// the log or the connection underneath is `.storage`, carrying the description of the
/// `EventLogError` or `StreamClientError` it replaces. Direct calls on an `EventLog` throw
/// `EventLogError`; calls and async sequences on a `StreamConnection` throw `StreamClientError`.
public struct StreamFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the failure came from.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// Sent into the stream and stored; every reader of the stream sees it.
        case stored
        /// The log failed: reading, writing or decoding an event. Not stored; the message says what
        /// failed and what to do.
        case storage
    }

    /// Where the failure came from.
    public var origin: Origin
    /// What happened.
    public var message: String

    /// A failure of the given origin.
    public init(origin: Origin, message: String) {
        self.origin = origin
        self.message = message
    }

    /// A failure to send into a stream, stored as `message`.
    public init(_ message: String) {
        self.init(origin: .stored, message: message)
    }

    /// A failure of the log itself.
    public init(storage error: any Error) {
        self.init(origin: .storage, message: "\(error)")
    }

    /// The stored form of any error: its description.
    public init(describing error: any Error) {
        self = (error as? StreamFailure) ?? StreamFailure("\(error)")
    }

    /// The message, marked when the log itself failed.
    public var description: String {
        origin == .stored ? message : "event log failure: \(message)"
    }
}
