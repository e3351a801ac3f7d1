/// Why a file or directory the daemon or the client was about to trust was refused: a symlink where a
/// plain file or directory belongs, another user's file, or a directory others may write.
///
/// Its description is a sentence naming the path, what was wrong and what to do.
/// Values are Sendable.
public struct FileSafetyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path that was refused.
    public let path: String
    /// The message for the person who reads it.
    public let description: String

    /// A refusal of `path` explained by `description`.
    public init(path: String, _ description: String) {
        self.path = path
        self.description = description
    }
}
