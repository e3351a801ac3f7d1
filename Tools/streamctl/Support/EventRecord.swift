import Foundation
import StreamClient

/// One event as `tail --json/--ndjson` and `export` print it, and as `import` reads it back.
///
/// The payload is its UTF-8 text when it is valid UTF-8 (`encoding` "utf8"), else base64
/// (`encoding` "base64"), so any bytes survive a round trip through a text file.
struct EventRecord: Codable {
    var sequence: UInt64?
    var timestamp: String?
    var timestampUs: Int64?
    var payload: String
    var encoding: String?

    init(_ event: ReceivedEvent) {
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

    /// One NDJSON line (with its newline).
    func line() throws -> [UInt8] {
        Array(try Output.encode(self)) + [0x0A]
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
        default: "\(error)"
        }
    }
}
