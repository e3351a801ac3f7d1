import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// When the daemon dies during an import, streamctl says what was acknowledged and how to resume, and
/// the command it gives finishes the job with every line stored exactly once (issue 14, defect 10).
@Suite struct InterruptedImportTests {
    @Test func aDaemonKilledMidImportLeavesAResumeCommandThatStoresEveryLineOnce() throws {
        let fixture = try DaemonFixture()
        let ctl = Ctl(socket: fixture.socket)
        let stream = "imported"
        let lineCount = 200_000
        let file = fixture.directory.path + "/in.ndjson"
        var text = ""
        text.reserveCapacity(lineCount * 28)
        for index in 1...lineCount { text += #"{"payload":"line-\#(index)"}"# + "\n" }
        try text.write(toFile: file, atomically: false, encoding: .utf8)

        let importing = try ToolProcess("streamctl", ["import", stream, "--input", file, "--json"], environment: ["STREAMD_SOCKET": fixture.socket])
        try Self.killOnceAcknowledged(fixture, stream: stream, what: "import")
        let result = importing.finish(timeout: 60)
        #expect(result.status == 1, "\(result)")

        // --json: the summary, with where the import stood.
        let summary = try JSONValue.parse(result.output)
        #expect(try SchemaChecker.streamctl().problems(of: summary, against: "import") == [])
        let interrupted = try #require(summary["interrupted"], "\(result)")
        let sequence = Int(try #require(interrupted["last_acknowledged_sequence"]?.int, "\(result)"))
        let line = Int(try #require(interrupted["last_acknowledged_line"]?.int, "\(result)"))
        let command = try #require(interrupted["resume_command"]?.string, "\(result)")
        #expect(summary["events"]?.int == Int64(sequence) && line == sequence, "one event per line from an empty stream: \(result)")
        #expect(sequence < lineCount, "the daemon was killed after the import ended: \(result)")
        #expect(command == "streamctl import \(stream) --input \(file) --skip-lines \(line) --after-sequence \(sequence)")
        // Standard error: the same, as a sentence.
        let message = result.standardError
        #expect(message.contains("the connection to streamd was lost while importing into \(stream)"), "\(message)")
        #expect(message.contains("the last with sequence \(sequence), from lines up to \(line) of \(file)"), "\(message)")
        #expect(message.contains("resume with: \(command)"), "\(message)")

        try fixture.start()
        let words = command.split(separator: " ").map(String.init)
        let resumed = try ctl.run(Array(words.dropFirst()))
        #expect(resumed.status == 0, "\(resumed)")

        let tailed = try ctl.run("tail", stream, "--all")
        #expect(tailed.status == 0)
        let payloads = tailed.lines
        #expect(payloads.count == lineCount)
        let wrong = zip(payloads, 1...lineCount).first { $0.0 != "line-\($0.1)" }
        #expect(wrong == nil, "the first event that differs from its line: \(String(describing: wrong))")
    }

    @Test func resumingSkipsTheInFlightBatchTheDaemonHadStoredAndStopsIfAnotherPublisherCameBetween() throws {
        let fixture = try DaemonFixture()
        let ctl = Ctl(socket: fixture.socket)
        let lines = (1...3_000).map { #"{"payload":"e\#($0)"}"# }
        let file = fixture.directory.path + "/in.ndjson"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        // As if an import had been acknowledged up to line 1000 (sequence 1000), and its batch of lines
        // 1001...1500 had been stored without the acknowledgement arriving.
        try ctl.succeed("import", "s", input: lines.prefix(1_500).joined(separator: "\n") + "\n")
        let summary = try ctl.json("import", "s", "--input", file, "--skip-lines", "1000", "--after-sequence", "1000")
        #expect(summary["events"]?.int == 1_500 && summary["first_sequence"]?.int == 1_501 && summary["skipped_lines"]?.int == 1_500)
        #expect(try ctl.run("tail", "s", "--all").lines == lines.map { String($0.dropFirst(12).dropLast(2)) })

        // Another publisher's event after the acknowledged sequence is not taken for the import's own.
        try ctl.succeed("import", "t", input: lines.prefix(1_000).joined(separator: "\n") + "\n")
        try ctl.succeed("publish", "t", "someone else")
        let refused = try ctl.run("import", "t", "--input", file, "--skip-lines", "1000", "--after-sequence", "1000")
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("line 1001 of \(file) is not the event t holds at sequence 1001: something else published to t"), "\(refused)")
        #expect(try ctl.json("info", "t")["count"]?.int == 1_001)
    }

    @Test func aDaemonKilledMidPublishNamesTheLastAcknowledgedSequenceAndLine() throws {
        let fixture = try DaemonFixture()
        let lineCount = 200_000
        let input = Data((1...lineCount).map { "p\($0)\n" }.joined().utf8)
        let publishing = try ToolProcess("streamctl", ["publish", "p", "--json"], environment: ["STREAMD_SOCKET": fixture.socket], input: input)
        try Self.killOnceAcknowledged(fixture, stream: "p", what: "publish")
        let result = publishing.finish(timeout: 60)
        #expect(result.status == 1, "\(result)")
        let summary = try JSONValue.parse(result.output)
        #expect(try SchemaChecker.streamctl().problems(of: summary, against: "publish") == [])
        let sequence = try #require(summary["interrupted"]?["last_acknowledged_sequence"]?.int, "\(result)")
        let line = try #require(summary["interrupted"]?["last_acknowledged_line"]?.int, "\(result)")
        #expect(sequence == line && sequence < lineCount, "\(result)")
        #expect(result.standardError.contains("the connection to streamd was lost while publishing to p"), "\(result)")
        #expect(result.standardError.contains("the last with sequence \(sequence), from lines up to \(line) of standard input"), "\(result)")
        #expect(result.standardError.contains("Lines after \(line) were not acknowledged"), "\(result)")
    }

    /// SIGKILLs the daemon once `stream` holds 2 000 events. Batches of 1000 go one at a time, each
    /// after the one before was acknowledged, so by then streamctl has seen an acknowledgement.
    private static func killOnceAcknowledged(_ fixture: DaemonFixture, stream: String, what: String) throws {
        let watcher = try SocketClient.connected(to: fixture.socket)
        let started = pollUntil(timeout: .seconds(60)) {
            guard case let .streamInfo(info)? = try? watcher.request(.getStreamInfo(name: stream)) else { return false }
            return info.count >= 2_000
        }
        #expect(started, "the \(what) stored nothing within 60 s")
        fixture.stop(with: SIGKILL)
    }
}
