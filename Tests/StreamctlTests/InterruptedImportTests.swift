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
        let watcher = try SocketClient.connected(to: fixture.socket)
        let started = pollUntil(timeout: .seconds(60)) {
            guard case let .streamInfo(info)? = try? watcher.request(.getStreamInfo(name: stream)) else { return false }
            return info.count >= 1_000
        }
        #expect(started, "the import stored nothing within 60 s")
        fixture.stop(with: SIGKILL)
        let result = importing.finish(timeout: 60)
        #expect(result.status == 1, "\(result)")

        // --json: the summary, with where the import stood.
        let summary = try JSONValue.parse(result.output)
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
}
