import Foundation
import StreamdTestSupport
import Testing

/// `tail` with each start position, limit and output format, and `--follow` as a late subscriber.
@Suite struct TailTests {
    static let shared = SharedDaemon.start()

    private func streamOfTwenty(_ ctl: Ctl) throws -> String {
        let stream = uniqueStream("tail")
        try ctl.succeed("publish", stream, input: (1...20).map { "event \($0)\n" }.joined())
        return stream
    }

    @Test func byDefaultItPrintsTheLastTenPayloadsOnePerLine() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTwenty(ctl)
        #expect(try ctl.run("tail", stream).lines == (11...20).map { "event \($0)" })
    }

    @Test func startPositionsAllLastFromSequenceAndLimit() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTwenty(ctl)
        #expect(try ctl.run("tail", stream, "--all").lines.count == 20)
        #expect(try ctl.run("tail", stream, "--last", "3").lines == ["event 18", "event 19", "event 20"])
        #expect(try ctl.run("tail", stream, "--from-seq", "19").lines == ["event 19", "event 20"])
        #expect(try ctl.run("tail", stream, "--all", "--limit", "2").lines == ["event 1", "event 2"])
        #expect(try ctl.run("tail", stream, "--from-seq", "21").lines.isEmpty)
    }

    @Test func sinceTakesRelativeAndISOTimes() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTwenty(ctl)
        #expect(try ctl.run("tail", stream, "--since", "10m").lines.count == 20)
        #expect(try ctl.run("tail", stream, "--since", "2000-01-01T00:00:00Z").lines.count == 20)
        #expect(try ctl.run("tail", stream, "--since", "2999-01-01").lines.isEmpty)
        let bad = try ctl.run("tail", stream, "--since", "yesterday-ish")
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--since takes an ISO-8601 time"))
    }

    @Test func ndjsonAndJSONCarrySequenceTimestampAndPayload() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("tail-json")
        try ctl.succeed("publish", stream, "{\"id\":1}")
        try ctl.run(["publish", stream], input: Data([0xFF, 0xFE, 0x0A]))
        let lines = try ctl.run("tail", stream, "--ndjson").lines
        #expect(lines.count == 2)
        let first = try JSONValue.parse(lines[0]), second = try JSONValue.parse(lines[1])
        #expect(first["sequence"]?.int == 1 && first["payload"]?.string == "{\"id\":1}" && first["encoding"]?.string == "utf8")
        #expect(second["payload"]?.string == "//4=" && second["encoding"]?.string == "base64")
        #expect((first["timestamp_us"]?.int ?? 0) > 1_700_000_000_000_000)
        #expect(first["timestamp"]?.string?.hasSuffix("Z") == true)

        let document = try ctl.json("tail", stream, "--all")
        #expect(document["stream"]?.string == stream)
        #expect(document["events"]?.array?.count == 2)
    }

    @Test func ndjsonEscapesQuotesBackslashesAndControlCharactersLikeJSON() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("escape")
        let tricky = "quote\" back\\slash\ttab\u{01}ctl\nnew line é ✓ /slash"
        try ctl.succeed("publish", stream, tricky)
        let line = try #require(try ctl.run("tail", stream, "--ndjson").lines.first)
        #expect(try JSONValue.parse(line)["payload"]?.string == tricky)
        #expect(line.contains(#""payload":"quote\" back\\slash\ttab\u0001ctl\nnew line é ✓ /slash""#), "\(line)")
        #expect(try ctl.json("tail", stream)["events"]?[0]?["payload"]?.string == tricky)
    }

    @Test func followPrintsHistoryThenLiveEventsAsALateSubscriber() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("follow")
        try ctl.succeed("publish", stream, "before")
        let follower = try ctl.start("tail", stream, "--follow", "--all", "--limit", "3")
        try follower.waitForOutput(containing: "before\n")
        try ctl.succeed("publish", stream, "live 1")
        try follower.waitForOutput(containing: "live 1\n")
        try ctl.succeed("publish", stream, input: "live 2\nlive 3\n")
        let result = follower.finish()
        #expect(result.status == 0)
        #expect(result.lines == ["before", "live 1", "live 2"])
    }

    @Test func conflictingOptionsAreBadUsage() throws {
        let ctl = try Ctl(Self.shared)
        for arguments in [["--all", "--last", "2"], ["--json", "--ndjson"], ["--json", "--follow"], ["--limit", "0"], ["--last", "-1"]] {
            let result = try ctl.run(["tail", "s"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.standardOutput.isEmpty)
        }
    }
}
