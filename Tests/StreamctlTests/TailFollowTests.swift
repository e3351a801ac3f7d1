import Foundation
import StreamdTestSupport
import Testing

/// `tail --follow` across a daemon restart and on a missing stream, and `--since` refusing a bare number.
@Suite struct TailFollowTests {
    static let shared = SharedDaemon.start()

    @Test func aFollowerSurvivesADaemonRestartWithNoGapAndNoDuplicate() throws {
        let fixture = try DaemonFixture()
        let ctl = Ctl(socket: fixture.socket)
        try ctl.succeed("publish", "orders", input: "e1\ne2\ne3\n")
        let follower = try ctl.start("tail", "orders", "--follow", "--all", "--limit", "6")
        try follower.waitForOutput(containing: "e3\n")
        try fixture.restart(after: SIGTERM)
        try ctl.succeed("publish", "orders", "e4")
        try follower.waitForOutput(containing: "e4\n")
        try fixture.restart(after: SIGKILL)
        try ctl.succeed("publish", "orders", input: "e5\ne6\ne7\n")
        let result = follower.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["e1", "e2", "e3", "e4", "e5", "e6"])
    }

    @Test func followingAMissingStreamSaysHowToCreateItWithStreamctl() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("ghost")
        for arguments in [["tail", stream, "--follow"], ["tail", stream]] {
            let result = try ctl.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.standardError.hasPrefix(
                "streamctl: no stream named \"\(stream)\"; create it with `streamctl create \(stream)` or publish to it"), "\(arguments): \(result)")
            #expect(!result.standardError.contains("createStream"), "\(result)")
            #expect(!result.standardError.contains("CREATE_STREAM"), "\(result)")
        }
    }

    @Test func sinceRefusesABareNumberAndTakesEpochSecondsWithAnAt() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("since")
        try ctl.succeed("publish", stream, input: "a\nb\n")
        let bare = try ctl.run("tail", stream, "--since", "1795284351")
        #expect(bare.status == 64)
        #expect(bare.standardOutput.isEmpty)
        #expect(bare.standardError.contains("is a bare number"), "\(bare)")
        #expect(bare.standardError.contains("@1795284351"), "\(bare)")
        #expect(try ctl.run("truncate", stream, "--older-than", "3600").status == 64)
        #expect(try ctl.run("tail", stream, "--since", "@1000000000").lines == ["a", "b"])
        #expect(try ctl.run("tail", stream, "--since", "@32503680000").lines.isEmpty)  // the year 3000
        #expect(try ctl.run("tail", stream, "--since", "@soon").status == 64)
        #expect(try ctl.succeed("tail", "--help").contains("@SECONDS"))
    }
}
