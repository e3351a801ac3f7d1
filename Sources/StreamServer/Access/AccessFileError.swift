/// Why an access file was refused: which file, where in it, and what to change.
///
/// Values are Sendable.
public struct AccessFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path as the operator named it.
    public let path: String
    /// The 1-based line of the problem, when it is in the text.
    public let line: Int?
    /// The 1-based column of the problem, when it is in the text.
    public let column: Int?
    /// What is wrong and what to do, as a sentence without the location.
    public let reason: String

    /// A problem of the file `path` at `line` and `column`.
    public init(path: String, line: Int? = nil, column: Int? = nil, _ reason: String) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `the access file /etc/streamd/acl.json, line 3, column 14: unknown right "write"; ...`
    public var description: String {
        var place = "the access file \(path)"
        if let line { place += ", line \(line)" }
        if let column { place += ", column \(column)" }
        return "\(place): \(reason)"
    }
}
