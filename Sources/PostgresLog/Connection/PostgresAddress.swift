/// Where a PostgreSQL log lives: a `postgres://` or `postgresql://` URL as libpq reads it
/// (`postgres://USER[:PASSWORD]@HOST[:PORT][,HOST2[:PORT2]…]/DATABASE[?PARAMETERS]`; a Unix socket's
/// directory as the host, percent-encoded, or as `?host=/run/postgresql`).
///
/// `description` shows the URL with any password replaced by `***`, for messages and logs.
/// Values are immutable and Sendable.
public struct PostgresAddress: Sendable, CustomStringConvertible, Equatable {
    /// The URL as given, password included: for libpq only.
    package let url: String

    /// Whether `text` names a PostgreSQL log rather than an SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Checks that `url` is a PostgreSQL URL; libpq checks the rest when it connects.
    public init(_ url: String) throws(PostgresAddressError) {
        guard Self.isPostgres(url) else { throw PostgresAddressError(url: url) }
        self.url = url
    }

    /// The URL with its password (in the user part or a `password=` parameter) masked.
    public var description: String {
        var shown = url
        let scheme = shown.range(of: "://")!
        let authorityEnd = shown[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? shown.endIndex
        if let at = shown[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
            let colon = shown[scheme.upperBound..<at].firstIndex(of: ":")
        {
            shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
        }
        if let password = shown.range(of: "password=") {
            let end = shown[password.upperBound...].firstIndex(of: "&") ?? shown.endIndex
            shown.replaceSubrange(password.upperBound..<end, with: "***")
        }
        return shown
    }
}

/// A database argument that is not a PostgreSQL URL.
public struct PostgresAddressError: Error, Sendable, CustomStringConvertible {
    public let url: String
    public var description: String {
        "\(url) is not a PostgreSQL URL; write it as postgres://USER@HOST:PORT/DATABASE (or postgresql://…)."
    }
}
