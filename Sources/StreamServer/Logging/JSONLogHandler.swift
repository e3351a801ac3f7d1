#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging

/// A `LogHandler` that writes each entry as one line of JSON on standard error, for journald, Loki
/// and the like: `time` (RFC 3339, UTC, microseconds), `level`, `label`, `message`, then the
/// metadata, each key a field (sorted by key), nested metadata as JSON objects and arrays.
///
/// Metadata values given as `.stringConvertible` integers or booleans are written as JSON numbers
/// and booleans; everything else as strings. A metadata key that would overwrite one of the four
/// fixed fields is written with a `metadata.` prefix instead. The error attached to a log event, if
/// any, is written as `error`.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
/// Logger(label: "streamd").info("started", metadata: ["pid": .stringConvertible(getpid())])
/// // {"time":"2025-01-02T03:04:05.678901Z","level":"info","label":"streamd","message":"started","pid":1234}
/// ```
///
/// Thread-safety: a value type (as swift-log wants); entries from any thread are written whole, one
/// `write` at a time under a process-wide lock, so lines never interleave.
public struct JSONLogHandler: LogHandler {
    /// The logger's label, written as `label`.
    public let label: String
    /// Entries below this level are not written.
    public var logLevel: Logger.Level = .info
    /// Metadata written with every entry of this handler.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added to every entry when it is written.
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler for the logger `label`, writing to standard error.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    /// The value of one metadata key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one JSON line on standard error.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata { merged.merge(explicit) { _, new in new } }
        if let error = event.error { merged["error"] = .string("\(error)") }
        let line = Self.line(
            microseconds: Self.nowMicroseconds(), level: event.level, label: label,
            message: event.message.description, metadata: merged)
        Self.standardError.write(line)
    }

    /// The JSON line (with its newline) for one entry, at `microseconds` since the Unix epoch.
    public static func line(
        microseconds: Int64, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + message.utf8.count)
        out.append(contentsOf: #"{"time":""#.utf8)
        appendTime(microseconds, to: &out)
        out.append(contentsOf: #"","level":"#.utf8)
        appendString(level.rawValue, to: &out)
        out.append(contentsOf: #","label":"#.utf8)
        appendString(label, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        appendString(message, to: &out)
        for key in metadata.keys.sorted() {
            out.append(UInt8(ascii: ","))
            appendString(fixedFields.contains(key) ? "metadata.\(key)" : key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendValue(metadata[key]!, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// The fields every line has, which metadata may not overwrite.
    private static let fixedFields: Set<String> = ["time", "level", "label", "message"]

    private static func appendValue(_ value: Logger.Metadata.Value, to out: inout [UInt8]) {
        switch value {
        case let .string(string):
            appendString(string, to: &out)
        case let .stringConvertible(convertible):
            // Numbers and booleans stay numbers and booleans, so a log query can compare them.
            switch convertible {
            case let value as Bool: out.append(contentsOf: (value ? "true" : "false").utf8)
            case let value as any BinaryInteger: out.append(contentsOf: "\(value)".utf8)
            default: appendString(convertible.description, to: &out)
            }
        case let .dictionary(dictionary):
            out.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendValue(dictionary[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let .array(array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendValue(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Appends `string` as a JSON string: quotes and backslashes escaped, control characters as
    /// `\n`, `\t`, ... or `\u00XX`, everything else (non-ASCII included) as its UTF-8 bytes.
    static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `microseconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    static func appendTime(_ microseconds: Int64, to out: inout [UInt8]) {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        let fraction = microseconds - seconds * 1_000_000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            for _ in 0..<count {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                value %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        out.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        out.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        out.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        out.append(UInt8(ascii: "."))
        digits(Int(fraction), 6)
        out.append(UInt8(ascii: "Z"))
    }

    /// Microseconds since the Unix epoch, from the wall clock.
    private static func nowMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// Standard error, written one whole line at a time.
    private static let standardError = LineWriter(descriptor: 2)
}
