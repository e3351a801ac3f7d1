import Foundation
import StreamdTestSupport
import Testing

/// `ls` shows each stream's last activity as a time ago (`never` without events); `--json` keeps the moment.
@Suite struct ListActivityTests {
    static let shared = SharedDaemon.start()

    /// The LAST ACTIVITY cell of `stream`'s row of an `ls` table (columns start where the header's do).
    private func activity(of stream: String, in table: String) throws -> String {
        let lines = table.split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        let start = try #require(header.range(of: "LAST ACTIVITY")).lowerBound
        let end = try #require(header.range(of: "STORED")).lowerBound
        let row = try #require(lines.first { $0.hasPrefix(stream + " ") })
        let offset = (header.distance(from: header.startIndex, to: start), header.distance(from: header.startIndex, to: end))
        return String(Array(row)[offset.0..<offset.1]).trimmingCharacters(in: .whitespaces)
    }

    @Test func lsShowsTheLastEventAsATimeAgoAndNeverForAStreamWithoutEvents() throws {
        let ctl = try Ctl(Self.shared)
        let (busy, idle) = (uniqueStream("active"), uniqueStream("idle"))
        try ctl.succeed("publish", busy, "x")
        try ctl.succeed("create", idle)
        Thread.sleep(forTimeInterval: 1.2)
        let table = try ctl.succeed("ls")
        let ago = try activity(of: busy, in: table)
        #expect(ago.range(of: #"^[0-9]+ s ago$"#, options: .regularExpression) != nil, "\(ago)\n\(table)")
        #expect(try activity(of: idle, in: table) == "never", "\(table)")

        let entry = try #require(try ctl.json("ls")["streams"]?.array?.first { $0["name"]?.string == busy })
        #expect(entry["last_time"]?.string?.hasSuffix("Z") == true)
        #expect(try ctl.json("ls")["streams"]?.array?.first { $0["name"]?.string == idle }?["last_time"] == nil)
    }
}
