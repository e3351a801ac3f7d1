/// Why the daemon could not start or serve; its description is the message an operator reads.
///
/// Values are Sendable.
public struct StreamServerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// Another daemon answers on the socket.
        case socketInUse
        /// Something that is not a socket sits at the socket path.
        case socketPathOccupied
        /// Another daemon, or another process, holds the database.
        case databaseInUse
        /// A file could not be created, opened or bound.
        case system
        /// A file or directory streamd was to use is a symlink, another user's, or open to others.
        case unsafeFile
        /// The access file (`--acl`) cannot be read or is not valid.
        case accessFile
        /// The socket a service manager passed (`LISTEN_FDS`) is not a listening Unix stream socket.
        case inheritedSocket
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The message for the operator.
    public let description: String

    /// A failure of `kind` explained by `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
