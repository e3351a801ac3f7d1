/// A glob over stream names, as the `streams` of an access rule.
///
/// `*` matches any run of characters, none included, dots included (`public.*` matches `public.a`
/// and `public.a.b`, but not `public`); `?` matches exactly one character; every other character
/// stands for itself and must be one a stream name may hold (letters, digits, `.`, `_`, `-`), so a
/// pattern can never silently match nothing because of a typo'd character. Matching is by bytes and
/// case-sensitive, as stream names are.
///
/// ```swift
/// let pattern = try StreamPattern("orders.*")
/// pattern.matches("orders.eu")   // true
/// pattern.matches("orders")      // false
/// ```
/// Values are Sendable.
public struct StreamPattern: Sendable, Hashable, CustomStringConvertible {
    /// Why a pattern was refused, as a phrase ("is empty", "has ' ' at character 3").
    public struct Invalid: Error, Sendable, Equatable {
        /// What is wrong with the pattern.
        public let reason: String
    }

    /// The pattern as written.
    public let description: String
    /// The pattern's UTF-8 bytes, matched against a name's.
    private let bytes: [UInt8]

    /// The longest pattern accepted, in bytes (a stream name may have 255).
    public static let maximumLength = 1024

    /// The pattern `text`.
    ///
    /// - Throws: `Invalid` when it is empty, too long, or holds a character no stream name may hold.
    public init(_ text: String) throws(Invalid) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw Invalid(reason: "is empty; use \"*\" for every stream") }
        guard bytes.count <= Self.maximumLength else {
            throw Invalid(reason: "is \(bytes.count) bytes long, more than the \(Self.maximumLength) allowed")
        }
        for (offset, byte) in bytes.enumerated() where !Self.isAllowed(byte) {
            let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            throw Invalid(reason: "has \(shown) at byte \(offset); a pattern holds the characters of stream names (letters, digits, '.', '_', '-') and the wildcards '*' and '?'")
        }
        self.description = text
        self.bytes = bytes
    }

    /// Whether the pattern matches every stream name (it is made of `*` only).
    public var matchesEveryName: Bool { bytes.allSatisfy { $0 == UInt8(ascii: "*") } }

    /// Whether `name` matches the pattern.
    public func matches(_ name: String) -> Bool {
        let name = Array(name.utf8)
        // The usual two-cursor glob match: on a mismatch after a `*`, let that `*` eat one more byte.
        var (p, n) = (0, 0)
        var starAt: Int? = nil
        var resumeAt = 0
        while n < name.count {
            if p < bytes.count, bytes[p] == UInt8(ascii: "*") {
                starAt = p
                resumeAt = n
                p += 1
            } else if p < bytes.count, bytes[p] == UInt8(ascii: "?") || bytes[p] == name[n] {
                p += 1
                n += 1
            } else if let star = starAt {
                p = star + 1
                resumeAt += 1
                n = resumeAt
            } else {
                return false
            }
        }
        while p < bytes.count, bytes[p] == UInt8(ascii: "*") { p += 1 }
        return p == bytes.count
    }

    /// Whether `byte` may appear in a pattern: a stream name's characters and the two wildcards.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
            UInt8(ascii: "*"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }
}
