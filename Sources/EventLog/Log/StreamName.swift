/// The rule for stream names: 1...200 bytes of `A-Z a-z 0-9 . _ -`, not starting with `.`.
///
/// The charset keeps names safe in file names, URLs, shell arguments and log lines; the leading-dot
/// ban keeps `.`-prefixed names free for the log's own future use.
public enum StreamName {
    /// The longest name allowed, in bytes.
    public static let maximumLength = 200

    /// Throws `EventLogError.Code.invalidStreamName` naming the first problem with `name`.
    public static func validate(_ name: String) throws(EventLogError) {
        // Straight from the UTF-8 view: a daemon checks the name of every publish.
        let bytes = name.utf8
        guard let first = bytes.first else {
            throw invalid(name, "is empty")
        }
        guard bytes.count <= maximumLength else {
            throw invalid(name, "is \(bytes.count) bytes long, more than the \(maximumLength) allowed")
        }
        guard first != UInt8(ascii: ".") else {
            throw invalid(name, "starts with '.'")
        }
        for (offset, byte) in bytes.enumerated() where !isAllowed(byte) {
            let shown = byte < 0x80 && byte >= 0x20 ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: byte)
            throw invalid(name, "has \(shown) at byte \(offset)")
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func String(format byte: UInt8) -> Swift.String {
        "byte 0x" + Swift.String(byte, radix: 16)
    }

    private static func invalid(_ name: Swift.String, _ problem: Swift.String) -> EventLogError {
        let shown = name.count > 60 ? Swift.String(name.prefix(60)) + "…" : name
        return EventLogError(
            .invalidStreamName,
            "stream name \"\(shown)\" \(problem); names are 1...\(maximumLength) bytes of A-Z a-z 0-9 . _ - and do not start with '.'.",
            stream: name)
    }
}
