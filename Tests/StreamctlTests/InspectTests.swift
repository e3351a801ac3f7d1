import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// `ls`, `info` and `stats` against a real daemon.
@Suite struct InspectTests {
    static let shared = SharedDaemon.start()

    @Test func lsListsEachStreamWithItsEventsSizesAndPolicy() throws {
        let ctl = try Ctl(Self.shared)
        let (a, b) = (uniqueStream("ls-a"), uniqueStream("ls-b"))
        try ctl.succeed("publish", a, input: "one\ntwo\nthree\n")
        try ctl.succeed("create", b, "--capacity", "100")
        let table = try ctl.succeed("ls")
        #expect(table.hasPrefix("NAME"))
        let rowA = try #require(table.split(separator: "\n").first { $0.hasPrefix(a + " ") })
        #expect(rowA.split(separator: " ", omittingEmptySubsequences: true).prefix(4) == [Substring(a), "3", "1", "3"])
        #expect(rowA.hasSuffix("unlimited"))
        let rowB = try #require(table.split(separator: "\n").first { $0.hasPrefix(b + " ") })
        #expect(rowB.hasSuffix("capacity 100"))

        let listing = try ctl.json("ls")
        let streams = try #require(listing["streams"]?.array)
        let entry = try #require(streams.first { $0["name"]?.string == a })
        #expect(entry["count"]?.int == 3 && entry["last_sequence"]?.int == 3)
    }

    @Test func infoShowsCountsSequencesTimesBytesRatioPolicySubscribersAndRate() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("info")
        let line = String(repeating: "compressible text ", count: 20)
        try ctl.succeed("publish", stream, input: String(repeating: line + "\n", count: 50))
        let text = try ctl.succeed("info", stream)
        #expect(text.contains("events         50 (sequences 1...50)"))
        #expect(text.contains("first time     20"))
        #expect(text.contains("policy         unlimited"))
        #expect(text.contains("subscribers    0"))

        let info = try ctl.json("info", stream)
        #expect(info["name"]?.string == stream)
        #expect(info["count"]?.int == 50 && info["first_sequence"]?.int == 1 && info["last_sequence"]?.int == 50)
        let stored = try #require(info["stored_bytes"]?.int), raw = try #require(info["raw_bytes"]?.int)
        #expect(raw >= 50 * Int64(line.utf8.count) && stored < raw / 4)
        let ratio = try #require(info["compression_ratio"]?.double)
        #expect(ratio > 0 && ratio < 0.25)
        #expect((info["publish_rate"]?.double ?? 0) > 0)
        #expect(info["first_time"]?.string?.hasSuffix("Z") == true)
    }

    @Test func infoCountsALiveSubscriber() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("subs")
        try ctl.succeed("publish", stream, "first")
        let follower = try ctl.start("tail", stream, "--follow")
        try follower.waitForOutput(containing: "first")
        #expect(try ctl.json("info", stream)["subscribers"]?.int == 1)
        follower.signal(SIGTERM)
        _ = follower.finish()
    }

    @Test func statsShowTheWholeDaemon() throws {
        let ctl = try Ctl(Self.shared)
        try ctl.succeed("publish", uniqueStream("stats"), input: "a\nb\n")
        let text = try ctl.succeed("stats")
        #expect(text.contains("streamd        \(StreamdVersion.current), protocol 4, up "))
        #expect(text.contains("streamctl      \(StreamdVersion.current)\n"))
        #expect(text.contains("socket         \(ctl.socket)"))
        let stats = try ctl.json("stats")
        #expect(stats["version"]?.string == StreamdVersion.current)
        #expect(stats["streamctl_version"]?.string == StreamdVersion.current)
        #expect(stats["socket"]?.string == ctl.socket)
        #expect(stats["database_path"]?.string?.hasSuffix("/db.sqlite") == true)
        #expect((stats["database_bytes"]?.int ?? 0) > 0)
        #expect((stats["streams"]?.int ?? 0) >= 1 && (stats["events"]?.int ?? 0) >= 2)
        #expect((stats["published_since_start"]?.int ?? 0) >= 2)
        #expect((stats["publish_rate"]?.double ?? 0) > 0)
        #expect((stats["uptime_seconds"]?.double ?? -1) >= 0)
    }
}
