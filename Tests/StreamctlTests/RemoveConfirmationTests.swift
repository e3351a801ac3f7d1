import Foundation
import StreamdTestSupport
import Testing

/// `rm` on a real pseudo-terminal: it shows what it will delete and deletes only on y or yes; `--force`
/// and a standard input that is not a terminal delete without asking.
@Suite struct RemoveConfirmationTests {
    static let shared = SharedDaemon.start()

    private func streamOfThree(_ ctl: Ctl) throws -> String {
        let stream = uniqueStream("confirm")
        try ctl.succeed("publish", stream, input: "a\nb\nc\n")
        return stream
    }

    @Test(arguments: ["y", "yes", " YES "])
    func onATerminalYesDeletesAfterShowingTheStreamItsEventsAndBytes(answer: String) throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfThree(ctl)
        let result = try Terminal.run(["rm", stream], socket: ctl.socket, answer: answer)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("Delete stream \(stream) (3 events, "), "\(result)")
        #expect(result.standardOutput.contains(" B stored) and all its events? This cannot be undone. [y/N] "), "\(result)")
        #expect(result.standardOutput.contains("deleted \(stream) (3 events)"), "\(result)")
        #expect(try ctl.run("info", stream).status == 1)
    }

    @Test(arguments: ["n", "no", "", "yess", "oui"])
    func onATerminalAnythingButYesAbortsWithExit1AndDeletesNothing(answer: String) throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfThree(ctl)
        let result = try Terminal.run(["rm", stream], socket: ctl.socket, answer: answer)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("[y/N] "), "\(result)")
        #expect(result.standardOutput.contains(
            "streamctl: \(stream) was not deleted: the answer was not y or yes (give --force to delete without asking)."), "\(result)")
        #expect(try ctl.json("info", stream)["count"]?.int == 3)
    }

    @Test func onATerminalForceDeletesWithoutAsking() throws {
        let ctl = try Ctl(Self.shared)
        for flag in ["--force", "-f"] {
            let stream = try streamOfThree(ctl)
            let result = try Terminal.run(["rm", stream, flag], socket: ctl.socket, answer: nil)
            #expect(result.status == 0, "\(result)")
            #expect(!result.standardOutput.contains("[y/N]"), "\(result)")
            #expect(result.standardOutput.contains("deleted \(stream) (3 events)"), "\(result)")
            #expect(try ctl.run("info", stream).status == 1)
        }
    }

    @Test func anAbortWithJSONIsAnErrorDocument() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfThree(ctl)
        let result = try Terminal.run(["rm", stream, "--json"], socket: ctl.socket, answer: "n")
        #expect(result.status == 1, "\(result)")
        // The terminal shows the question, the echoed answer and then the document, each as it came.
        let start = try #require(result.standardOutput.range(of: #"{"error""#), "\(result)").lowerBound
        let document = try JSONValue.parse(String(result.standardOutput[start...].prefix { $0 != "\n" && $0 != "\r" }))
        #expect(try SchemaChecker.streamctl().problems(of: document, against: "error") == [])
        #expect(document["error"]?["code"]?.string == "aborted")
        #expect(try ctl.json("info", stream)["count"]?.int == 3)
    }

    @Test func withStandardInputNotATerminalItDeletesWithoutAskingAsScriptsExpect() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfThree(ctl)
        // Standard input is a pipe holding "n": rm must neither read it nor wait for an answer.
        let result = try ctl.run("rm", stream, input: "n\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "deleted \(stream) (3 events)\n")
        #expect(!result.standardError.contains("[y/N]"))
    }
}
