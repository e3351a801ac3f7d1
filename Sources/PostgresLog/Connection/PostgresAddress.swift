import CLibPQ

/// Where a PostgreSQL log lives: a `postgres://` or `postgresql://` URL as libpq reads it
/// (`postgres://USER[:PASSWORD]@HOST[:PORT][,HOST2[:PORT2]…]/DATABASE[?PARAMETERS]`; a Unix socket's
/// directory as the host, percent-encoded, or as `?host=/run/postgresql`).
///
/// `description` shows the URL with every password (in the user part, or a `password` or
/// `sslpassword` parameter, however its name is percent-encoded) replaced by `***`, for messages and
/// logs; no error shows the URL unmasked.
/// Values are immutable and Sendable.
public struct PostgresAddress: Sendable, CustomStringConvertible, Equatable {
    /// The URL as given, password included: for libpq only.
    package let url: String
    /// The URL with its passwords masked, worked out once (errors and checks name it often).
    public let description: String

    /// Whether `text` names a PostgreSQL log rather than an SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Checks that `url` is a PostgreSQL URL libpq can read; libpq checks the rest when it connects.
    public init(_ url: String) throws(PostgresAddressError) {
        guard Self.isPostgres(url) else { throw PostgresAddressError(given: url, reason: .notPostgres) }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &error) else {
            // libpq's reason may quote the password: it is not shown.
            if let error { PQfreemem(error) }
            throw PostgresAddressError(given: url, reason: .unreadable)
        }
        PQconninfoFree(options)
        self.url = url
        description = Self.masked(url)
    }

    /// `text` with the password of its user part (which, as libpq reads it, ends at the first `@`
    /// before any `/`) and the values of its password parameters replaced by `***`.
    static func masked(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        var shown = String(text[..<scheme.upperBound])
        let rest = text[scheme.upperBound...]
        var hostAndAfter = rest
        if let end = rest.firstIndex(where: { $0 == "@" || $0 == "/" }), rest[end] == "@" {
            let user = rest[..<end]
            shown += user.firstIndex(of: ":").map { user[..<$0] + ":***" } ?? String(user)
            shown += "@"
            hostAndAfter = rest[rest.index(after: end)...]
        }
        guard let query = hostAndAfter.firstIndex(of: "?") else { return shown + hostAndAfter }
        shown += hostAndAfter[...query]
        let parameters = hostAndAfter[hostAndAfter.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = percentDecoded(pair[..<equals]).lowercased()
            return name == "password" || name == "sslpassword" ? pair[..<equals] + "=***" : String(pair)
        }
        return shown + parameters.joined(separator: "&")
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
                let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A database argument that is not a PostgreSQL URL libpq can read.
public struct PostgresAddressError: Error, Sendable, CustomStringConvertible {
    enum Reason: Sendable { case notPostgres, unreadable }

    /// What was given, as it may be shown: a URL only up to its scheme, as it may hold a password.
    public let shown: String
    let reason: Reason

    init(given: String, reason: Reason) {
        self.reason = reason
        shown = given.range(of: "://").map { String(given[..<$0.upperBound]) + "…" } ?? given
    }

    public var description: String {
        switch reason {
        case .notPostgres:
            "\(shown) is not a PostgreSQL URL; write it as postgres://USER@HOST:PORT/DATABASE (or postgresql://…)."
        case .unreadable:
            "the \(shown) URL given is not one libpq can read; check its percent-encoding (%2F for a / in a socket directory) and its parameters' names."
        }
    }
}
