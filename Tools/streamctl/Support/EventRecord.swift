import Foundation
import StreamClient

/// One event as `tail --json/--ndjson` and `export` print it, and as `import` reads it back.
///
/// The payload is its UTF-8 text when it is valid UTF-8 (`encoding` "utf8"), else base64
/// (`encoding` "base64"), so any bytes survive a round trip through a text file. A plain value.
struct EventRecord: Codable {
    var sequence: UInt64?
    var timestamp: String?
    var timestampUs: Int64?
    var payload: String
    var encoding: String?

    init(_ event: StoredEvent) {
        sequence = event.sequence
        timestampUs = event.timestamp
        timestamp = Formatting.time(event.timestamp)
        if let text = String(validating: event.payload, as: UTF8.self) {
            payload = text
            encoding = "utf8"
        } else {
            payload = Data(event.payload).base64EncodedString()
            encoding = "base64"
        }
    }

    /// The most bytes `line()` writes besides the payload's text: the keys, quotes and punctuation
    /// (62 bytes), "base64" (6), a sequence and a `timestamp_us` of 20 digits each, a timestamp of at
    /// most 32 characters, and the newline: 141, rounded up.
    static let longestFields = 160

    /// The longest line `line()` writes for a payload of `payloadBytes` bytes. Text is written as
    /// itself except that a control byte becomes `\u00XX`, 6 bytes for 1, which is more than base64's
    /// 4 bytes for 3, so a payload of control bytes makes the longest line.
    static func longestLine(payloadBytes: Int) -> Int {
        6 * payloadBytes + longestFields
    }

    /// The bytes to publish for this record; throws naming what is wrong.
    func bytes() throws -> [UInt8] {
        switch encoding ?? "utf8" {
        case "utf8": return Array(payload.utf8)
        case "base64":
            guard let data = Data(base64Encoded: payload) else { throw CtlFailure("its payload is not valid base64") }
            return Array(data)
        case let other: throw CtlFailure("its encoding is \"\(other)\", but must be \"utf8\" or \"base64\"")
        }
    }

    /// One NDJSON line (with its newline): the same document `Output.encode` makes (keys sorted, slashes
    /// not escaped), written by hand because export and tail print millions of them.
    func line() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.utf8.count + 128)
        bytes += Array(#"{"encoding":"#.utf8)
        Self.appendString(encoding ?? "utf8", to: &bytes)
        bytes += Array(#","payload":"#.utf8)
        Self.appendString(payload, to: &bytes)
        if let sequence { bytes += Array(#","sequence":\#(sequence)"#.utf8) }
        if let timestamp {
            bytes += Array(#","timestamp":"#.utf8)
            Self.appendString(timestamp, to: &bytes)
        }
        if let timestampUs { bytes += Array(#","timestamp_us":\#(timestampUs)"#.utf8) }
        bytes += [UInt8(ascii: "}"), 0x0A]
        return bytes
    }

    /// Appends `text` as a JSON string: quotes, backslashes and control characters escaped.
    private static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Reads one NDJSON line.
    static func parse(_ line: ArraySlice<UInt8>) throws -> EventRecord {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(EventRecord.self, from: Data(line))
        } catch {
            throw CtlFailure("it is not an exported event (a JSON object with a \"payload\" string): \(Self.reason(error))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted: "it is not valid JSON"
        default: "it could not be read as JSON"
        }
    }
}
