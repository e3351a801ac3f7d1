import Foundation
import StreamdTestSupport
import Testing

/// `publish`, `create` and `config` against a real daemon.
@Suite struct PublishAndPolicyTests {
    static let shared = SharedDaemon.start()

    @Test func publishStoresTheArgumentAsOneEvent() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("pub")
        #expect(try ctl.succeed("publish", stream, "hello world") == "published 1 event to \(stream) (sequence 1)\n")
        let summary = try ctl.json("publish", stream, "again")
        #expect(summary["published"]?.int == 1 && summary["first_sequence"]?.int == 2 && summary["duplicates"]?.int == 0)
        #expect(try ctl.run("tail", stream).lines == ["hello world", "again"])
    }

    @Test func publishTakesOneEventPerLineOfStandardInputInBatches() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("stdin")
        let input = (1...2_500).map { "line \($0)\r\n" }.joined() + "last line without newline"
        let output = try ctl.succeed("publish", stream, "--batch-size", "1000", input: input)
        #expect(output == "published 2501 events to \(stream) (sequences 1...2501)\n")
        #expect(try ctl.run("tail", stream, "--last", "2").lines == ["line 2500", "last line without newline"])
        #expect(try ctl.json("info", stream)["count"]?.int == 2_501)
        #expect(try ctl.succeed("publish", stream, input: "") == "published nothing to \(stream) (standard input was empty)\n")
    }

    @Test func createSetsCapacityReplayLastUnlimitedMaxAgeAndMaxBytes() throws {
        let ctl = try Ctl(Self.shared)
        let capped = uniqueStream("cap")
        #expect(try ctl.succeed("create", capped, "--capacity", "3", "--max-age", "2h", "--max-bytes", "10MiB")
            == "created \(capped): capacity 3, max age 2h, max bytes 10.0 MiB\n")
        let policy = try #require(try ctl.json("info", capped)["policy"])
        #expect(policy["capacity"]?.int == 3 && policy["max_age_ms"]?.int == 7_200_000 && policy["max_bytes"]?.int == 10 << 20)
        try ctl.succeed("publish", capped, input: "1\n2\n3\n4\n5\n")
        #expect(try ctl.run("tail", capped, "--all").lines == ["3", "4", "5"])

        let last = uniqueStream("last")
        #expect(try ctl.json("create", last, "--replay-last")["policy"]?["capacity"]?.int == 1)
        let unlimited = uniqueStream("unl")
        #expect(try ctl.json("create", unlimited, "--unlimited")["policy"]?["capacity"] == nil)
        // The same policy again is fine; another one is refused, pointing to config.
        try ctl.succeed("create", unlimited)
        let clash = try ctl.run("create", unlimited, "--capacity", "5")
        #expect(clash.status == 1)
        #expect(clash.standardError.contains("already exists with another policy; use `streamctl config`"))
    }

    @Test func configChangesOnlyTheFlagsGivenAndAppliesRetention() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("config")
        try ctl.succeed("create", stream, "--max-age", "1d")
        try ctl.succeed("publish", stream, input: "1\n2\n3\n4\n")
        #expect(try ctl.succeed("config", stream, "--capacity", "2") == "configured \(stream): capacity 2, max age 1d (2 events retained)\n")
        #expect(try ctl.run("tail", stream, "--all").lines == ["3", "4"])
        let policy = try #require(try ctl.json("config", stream, "--no-max-age", "--unlimited")["policy"])
        #expect(policy["capacity"] == nil && policy["max_age_ms"] == nil)
    }

    @Test func createAndConfigSetTheStreamsDeduplicationWindow() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("dedup")
        #expect(try ctl.succeed("create", stream, "--dedup-events", "2", "--dedup-window", "10m")
            == "created \(stream): unlimited, dedup over the last 2 events within 10m\n")
        let window = try #require(try ctl.json("info", stream)["policy"]?["deduplication"])
        #expect(window["events"]?.int == 2 && window["window_ms"]?.int == 600_000)
        for index in 1...3 { try ctl.succeed("publish", stream, "event \(index)", "--message-id", "id-\(index)") }
        #expect(try ctl.json("publish", stream, "again", "--message-id", "id-3")["duplicates"]?.int == 1)
        #expect(try ctl.json("publish", stream, "again", "--message-id", "id-1")["duplicates"]?.int == 0, "id-1 left the last 2 events")
        #expect(try ctl.succeed("config", stream, "--dedup-events", "0") == "configured \(stream): unlimited, no dedup (4 events retained)\n")
        #expect(try ctl.json("publish", stream, "again", "--message-id", "id-1")["duplicates"]?.int == 0)
        let restored = try ctl.json("config", stream, "--dedup-default")
        #expect(restored["policy"]?["deduplication"] == nil && restored["policy"]?["summary"]?.string == "unlimited")
        #expect(try ctl.json("publish", stream, "again", "--message-id", "id-1")["duplicates"]?.int == 0, "no id was kept while off")
        #expect(try ctl.json("publish", stream, "again", "--message-id", "id-1")["duplicates"]?.int == 1, "the default: the last 10 000")
    }

    @Test func policyFlagsAreCheckedAsUsage() throws {
        let ctl = try Ctl(Self.shared)
        for arguments in [
            ["create", "p", "--capacity", "3", "--unlimited"], ["create", "p", "--capacity", "0"],
            ["create", "p", "--max-age", "soon"], ["create", "p", "--max-bytes", "lots"], ["create", "p", "--no-max-age"],
            ["config", "p"], ["config", "p", "--max-age", "1h", "--no-max-age"],
            ["create", "p", "--dedup-window", "0s"], ["create", "p", "--dedup-window", "soon"], ["create", "p", "--dedup-events", "-1"],
            ["create", "p", "--dedup-default"], ["config", "p", "--dedup-default", "--dedup-events", "5"],
        ] {
            let result = try ctl.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }
}
