import Foundation
import StreamdTestSupport
import Testing

/// `publish` reading standard input as an operator feeds it (a slow pipe, huge lines, blank lines), and
/// its `--message-id` and `--expect-last-seq`.
@Suite struct PublishFromStandardInputTests {
    static let shared = SharedDaemon.start()

    /// Waits until `stream` holds `count` events, or fails after `timeout` seconds.
    private func waitForCount(_ ctl: Ctl, _ stream: String, _ count: Int64, timeout: TimeInterval = patience.timeInterval) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let info = try ctl.run("info", stream, "--json")
            if info.status == 0, try JSONValue.parse(info.output)["count"]?.int == count { return }
            Thread.sleep(forTimeInterval: 0.05)  // polling the daemon for a condition, with a deadline
        }
        throw TestFailure("\(stream) did not reach \(count) events within \(timeout) s")
    }

    @Test func aLineIsPublishedAsSoonAsStandardInputPausesNotAtItsEnd() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("prompt")
        let directory = try ShortTemporaryDirectory()
        let go = directory.path + "/go"
        let streamctl = DaemonProcess.builtExecutable(named: "streamctl")
        // The writer sends one line, then holds the pipe open until the test has seen that line stored.
        let script = "echo one; while [ ! -e '\(go)' ]; do sleep 0.05; done; echo two"
        let publisher = try ToolProcess(
            path: "/bin/sh", ["-c", "(\(script)) | '\(streamctl)' publish \(stream)"], environment: ["STREAMD_SOCKET": ctl.socket])
        let storedBeforeTheEnd = Result { try waitForCount(ctl, stream, 1) }
        // Released whatever happened, so the writer never waits forever.
        try #require(FileManager.default.createFile(atPath: go, contents: nil))
        try storedBeforeTheEnd.get()
        let result = publisher.finish()
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "published 2 events to \(stream) (sequences 1...2)\n")
        #expect(try ctl.run("tail", stream).lines == ["one", "two"])
    }

    @Test func twoLinesThatEachFitAFrameArePublishedInSeparateBatches() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("big")
        var input = Data(repeating: 0x61, count: 8_300_000)
        input.append(0x0A)
        input.append(Data(repeating: 0x62, count: 9_000_000))
        input.append(0x0A)
        let result = try ctl.run(["publish", stream, "--json"], input: input)
        #expect(result.status == 0, "\(result.status) \(result.standardError)")
        let summary = try JSONValue.parse(result.output)
        #expect(summary["published"]?.int == 2 && summary["last_sequence"]?.int == 2)
        let info = try ctl.json("info", stream)
        #expect(info["count"]?.int == 2)
    }

    @Test func aLineLargerThanAnEventMayBeFailsNamingItsNumberSizeAndTheLimit() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("huge")
        // streamctl stops reading at the long line, so the rest of the input meets a closed pipe
        // (ToolProcess ignores SIGPIPE for that).
        var input = Data("small\n".utf8)
        input.append(Data(repeating: 0x63, count: 17_000_000))
        input.append(0x0A)
        let result = try ctl.run(["publish", stream], input: input)
        #expect(result.status == 1)
        #expect(result.standardError.contains("line 2 of standard input is "), "\(result.standardError)")
        #expect(result.standardError.contains("bytes one event can have"), "\(result.standardError)")
        #expect(result.standardError.contains("frames of at most 16777216 bytes"), "\(result.standardError)")
        #expect(!result.standardError.contains("smaller"), "\(result.standardError)")
        // The lines before it were published.
        #expect(try ctl.run("tail", stream).lines == ["small"])
    }

    @Test func emptyLinesAreSkippedAsImportSkipsThem() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("blank")
        #expect(try ctl.succeed("publish", stream, input: "a\n\n\r\nb\n\n") == "published 2 events to \(stream) (sequences 1...2)\n")
        #expect(try ctl.run("tail", stream).lines == ["a", "b"])
        #expect(try ctl.succeed("publish", stream, input: "\n\n") == "published nothing to \(stream) (standard input held only empty lines)\n")
        #expect(try ctl.succeed("publish", "--help").contains("Empty lines are skipped"))
    }

    @Test func aRepeatedMessageIDIsReportedAsADuplicateAndNotStoredAgain() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("dedup")
        #expect(try ctl.succeed("publish", stream, "first", "--message-id", "order-17") == "published 1 event to \(stream) (sequence 1)\n")
        #expect(try ctl.succeed("publish", stream, "first again", "--message-id", "order-17")
            == "duplicate: \(stream) already holds message id order-17 (sequence 1); not stored again\n")
        let summary = try ctl.json("publish", stream, "still first", "--message-id", "order-17")
        #expect(summary["published"]?.int == 0 && summary["duplicates"]?.int == 1)
        #expect(summary["duplicate_of"]?.int == 1 && summary["message_id"]?.string == "order-17")
        #expect(try SchemaChecker.streamctl().problems(of: summary, against: "publish") == [])
        #expect(try ctl.run("tail", stream).lines == ["first"])
        // One event only: standard input may hold many.
        #expect(try ctl.run("publish", stream, "--message-id", "x", input: "a\n").status == 64)
    }

    @Test func expectLastSeqPublishesOnlyOnTheExpectedSequence() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("occ")
        #expect(try ctl.succeed("publish", stream, "one", "--expect-last-seq", "0") == "published 1 event to \(stream) (sequence 1)\n")
        let stale = try ctl.run("publish", stream, "two", "--expect-last-seq", "0")
        #expect(stale.status == 1)
        #expect(stale.standardError.contains("wrong_last_sequence"), "\(stale)")
        #expect(try ctl.succeed("publish", stream, "--expect-last-seq", "1", input: "two\nthree\n")
            == "published 2 events to \(stream) (sequences 2...3)\n")
        #expect(try ctl.run("publish", stream, "--expect-last-seq", "1", input: "four\n").status == 1)
        #expect(try ctl.run("tail", stream).lines == ["one", "two", "three"])
    }
}
