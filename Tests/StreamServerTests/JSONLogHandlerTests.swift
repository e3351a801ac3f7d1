import Logging
import Testing

@testable import StreamServer

@Suite("JSON log handler")
struct JSONLogHandlerTests {
    /// 2025-01-02T03:04:05.000678Z.
    private static let time: Int64 = 1_735_787_045_000_678

    private func line(_ message: String, _ metadata: Logger.Metadata = [:], label: String = "streamd") -> String {
        String(decoding: JSONLogHandler.line(microseconds: Self.time, level: .notice, label: label, message: message, metadata: metadata), as: UTF8.self)
    }

    @Test func aLineHasTimeLevelLabelAndMessageFirstThenTheMetadataSortedByKey() {
        #expect(line("started", ["socket": "/run/s.sock", "db": "/var/db"]) ==
            #"{"time":"2025-01-02T03:04:05.000678Z","level":"notice","label":"streamd","message":"started","db":"/var/db","socket":"/run/s.sock"}"# + "\n")
    }

    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        let message = "a \"quoted\" \\path\\ \n\r\t\u{08}\u{0C}\u{00}\u{01}\u{1F}\u{7F}"
        #expect(line(message) ==
            #"{"time":"2025-01-02T03:04:05.000678Z","level":"notice","label":"streamd","message":"a \"quoted\" \\path\\ \n\r\t\b\f\u0000\u0001\u001f"# + "\u{7F}\"}\n")
    }

    @Test func nonASCIIIsWrittenAsItsUTF8Bytes() {
        let bytes = JSONLogHandler.line(microseconds: Self.time, level: .info, label: "é", message: "ünïcødé 流 🚀 \u{2028}", metadata: ["clé": "värde"])
        let expected = Array(#"{"time":"2025-01-02T03:04:05.000678Z","level":"info","label":"é","message":"ünïcødé 流 🚀 "#.utf8)
            + [0xE2, 0x80, 0xA8] + Array(#"","clé":"värde"}"#.utf8) + [0x0A]
        #expect(bytes == expected)
    }

    @Test func nestedMetadataBecomesObjectsAndArraysAndNumbersStayNumbers() {
        let metadata: Logger.Metadata = [
            "limits": ["max-connections": .stringConvertible(64), "name": "x\"y"],
            "list": [.stringConvertible(1), "two", .stringConvertible(true), ["k": []]],
            "pid": .stringConvertible(Int32(-5)), "uid": .stringConvertible(UInt32(1000)), "ok": .stringConvertible(false),
            "text": .stringConvertible(1.5),
        ]
        #expect(line("m", metadata) ==
            #"{"time":"2025-01-02T03:04:05.000678Z","level":"notice","label":"streamd","message":"m","limits":{"max-connections":64,"name":"x\"y"},"list":[1,"two",true,{"k":[]}],"ok":false,"pid":-5,"text":"1.5","uid":1000}"# + "\n")
    }

    @Test func metadataNamedLikeAFixedFieldIsPrefixedInsteadOfOverwritingIt() {
        #expect(line("real", ["message": "fake", "time": "then"]) ==
            #"{"time":"2025-01-02T03:04:05.000678Z","level":"notice","label":"streamd","message":"real","metadata.message":"fake","metadata.time":"then"}"# + "\n")
    }

    @Test func timesAreRFC3339InUTCWithMicroseconds() {
        func time(_ microseconds: Int64) -> String {
            var out: [UInt8] = []
            JSONLogHandler.appendTime(microseconds, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        #expect(time(0) == "1970-01-01T00:00:00.000000Z")
        #expect(time(951_782_400_123_456) == "2000-02-29T00:00:00.123456Z")
        #expect(time(4_102_444_799_999_999) == "2099-12-31T23:59:59.999999Z")
        #expect(time(-1) == "1969-12-31T23:59:59.999999Z")
    }

    @Test func theHandlerKeepsItsOwnMetadataAndStartsAtInfo() {
        var handler = JSONLogHandler(label: "l", metadataProvider: .init { ["from": "provider", "p": "1"] })
        handler[metadataKey: "from"] = "handler"
        handler[metadataKey: "h"] = "2"
        #expect(handler.metadata == ["from": "handler", "h": "2"])
        #expect(handler.logLevel == .info)
    }
}
