import Foundation
import StreamdTestSupport
import Testing

/// `tail -n N`, `--to-seq S` and `--until TIME`: where tail stops, alone, together and with `--follow`.
@Suite struct TailRangeTests {
    static let shared = SharedDaemon.start()

    private func streamOfTwenty(_ ctl: Ctl) throws -> String {
        let stream = uniqueStream("tail-range")
        try ctl.succeed("publish", stream, input: (1...20).map { "event \($0)\n" }.joined())
        return stream
    }

    @Test func dashNIsTheLastNEvents() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTwenty(ctl)
        #expect(try ctl.run("tail", stream, "-n", "3").lines == ["event 18", "event 19", "event 20"])
        #expect(try ctl.run("tail", "-n", "1", stream).lines == ["event 20"])
        #expect(try ctl.run("tail", stream, "-n", "2", "--all").status == 64)
    }

    @Test func toSequenceStopsAfterThatSequence() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTwenty(ctl)
        #expect(try ctl.run("tail", stream, "--all", "--to-seq", "3").lines == ["event 1", "event 2", "event 3"])
        #expect(try ctl.run("tail", stream, "--from-seq", "5", "--to-seq", "6").lines == ["event 5", "event 6"])
        #expect(try ctl.run("tail", stream, "--to-seq", "12").lines == ["event 11", "event 12"])  // the last 10 start at 11
        #expect(try ctl.run("tail", stream, "--to-seq", "5").lines.isEmpty)
        #expect(try ctl.json("tail", stream, "--all", "--to-seq", "2")["events"]?.array?.count == 2)
        #expect(try ctl.run("tail", stream, "--from-seq", "6", "--to-seq", "5").status == 64)
    }

    @Test func untilStopsAtTheFirstEventAfterTheTime() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("tail-until")
        try ctl.succeed("publish", stream, input: "early 1\nearly 2\n")
        let micros = try #require(try ctl.json("tail", stream, "--all")["events"]?[1]?["timestamp_us"]?.int)
        let fraction = String(micros % 1_000_000)
        let second = "@\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count) + fraction)"
        Thread.sleep(forTimeInterval: 0.05)
        try ctl.succeed("publish", stream, input: "late 1\nlate 2\n")
        #expect(try ctl.run("tail", stream, "--all", "--until", second).lines == ["early 1", "early 2"])
        #expect(try ctl.run("tail", stream, "--all", "--until", "2999-01-01").lines.count == 4)
        #expect(try ctl.run("tail", stream, "--all", "--until", "@1000000000").lines.isEmpty)
        #expect(try ctl.run("tail", stream, "--all", "--until", "1h").lines.isEmpty)  // an hour ago: before every event
        let bad = try ctl.run("tail", stream, "--until", "soon")
        #expect(bad.status == 64 && bad.standardError.contains("--until takes an ISO-8601 time"), "\(bad)")
    }

    @Test func withFollowTailWaitsForTheLastSequenceAndStops() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("tail-to")
        try ctl.succeed("publish", stream, "one")
        let follower = try ctl.start("tail", stream, "--follow", "--all", "--to-seq", "3")
        try follower.waitForOutput(containing: "one\n")
        try ctl.succeed("publish", stream, input: "two\nthree\nfour\n")
        let result = follower.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["one", "two", "three"])
    }

    @Test func withFollowUntilStopsAtTheFirstLiveEventAfterTheTime() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("tail-until-follow")
        try ctl.succeed("publish", stream, "old")
        let until = Int(Date().timeIntervalSince1970) + 2
        let follower = try ctl.start("tail", stream, "-f", "-n", "5", "--until", "@\(until)")
        try follower.waitForOutput(containing: "old\n")
        // Past TIME, and before tail's own stop a second after it: these events are after TIME, so the
        // first of them ends tail unprinted (were it printed, the follower would have printed it).
        Thread.sleep(until: Date(timeIntervalSince1970: Double(until) + 0.2))
        try ctl.succeed("publish", stream, input: "after\nand more\n")
        let result = follower.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["old"])
    }

    @Test func withFollowUntilAlsoStopsOnceTheTimeHasPassedOnAQuietStream() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("tail-until-quiet")
        try ctl.succeed("publish", stream, "only")
        let started = Date()
        let follower = try ctl.start("tail", stream, "--follow", "--until", "@\(Int(Date().timeIntervalSince1970) + 1)")
        let result = follower.finish(timeout: 60)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["only"])
        // TIME is at most a second ahead, tail stops a second after it: well under the 60 s after which
        // a follower that did not stop is killed, with room for a loaded machine.
        #expect(seconds < 30, "tail --follow --until took \(seconds) s to stop on a quiet stream")
    }
}
