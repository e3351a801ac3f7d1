import Foundation
import StreamdTestSupport
import Testing

/// With `--json`, a failure is one `error` document on standard error (schemas/streamctl.schema.json),
/// with the exit status it has without `--json`: bad usage, the daemon's refusal, and no daemon at all.
@Suite struct JSONErrorTests {
    static let shared = SharedDaemon.start()

    /// Runs `arguments`, checks the exit status, the empty standard output and the one schema-conforming
    /// document on standard error, and returns its `error` object.
    private func failure(_ ctl: Ctl, _ arguments: [String], status: Int32) throws -> JSONValue {
        let result = try ctl.run(arguments)
        #expect(result.status == status, "\(arguments): \(result)")
        #expect(result.standardOutput.isEmpty, "\(arguments): \(result)")
        #expect(result.standardError.hasSuffix("}\n") && result.standardError.filter { $0 == "\n" }.count == 1, "\(arguments): \(result)")
        let document = try JSONValue.parse(result.standardError)
        #expect(try SchemaChecker.streamctl().problems(of: document, against: "error") == [], "\(arguments): \(document)")
        #expect(document["error"]?["exit_status"]?.int == Int64(status))
        return try #require(document["error"])
    }

    @Test(arguments: [["ls", "--frobnicate", "--json"], ["--json", "info"], ["tail", "s", "--limit", "0", "--json"],
                      ["tail", "s", "--since", "yesterday-ish", "--json"], ["--json", "nonsense-verb"], ["rm", ".hidden", "--json"]])
    func badUsageIsAUsageDocumentAndExit64(arguments: [String]) throws {
        let error = try failure(Ctl(socket: "/nonexistent/streamd.sock"), arguments, status: 64)
        #expect(error["code"]?.string == "usage")
        let message = error["message"]?.string ?? ""
        #expect(!message.hasPrefix("Error:") && !message.isEmpty, "\(error)")
    }

    @Test func theDaemonsRefusalCarriesItsErrorCode() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("json-error")
        let missing = try failure(ctl, ["info", stream, "--json"], status: 1)
        #expect(missing["code"]?.string == "stream_not_found")
        #expect(missing["message"]?.string?.hasPrefix("no stream named \"\(stream)\"") == true, "\(missing)")
        try ctl.succeed("publish", stream, input: "a\nb\n")
        let past = try failure(ctl, ["truncate", stream, "--before-seq", "50", "--json"], status: 1)
        #expect(past["message"]?.string?.contains("--before-seq 50 is past the end of \(stream)") == true, "\(past)")
    }

    @Test func noDaemonIsDaemonUnreachable() throws {
        let directory = try ShortTemporaryDirectory()
        let error = try failure(Ctl(socket: directory.socket), ["--json", "stats"], status: 1)
        #expect(error["code"]?.string == "daemon_unreachable")
        #expect(error["message"]?.string?.contains("no streamd is listening on \(directory.socket)") == true, "\(error)")
    }

    @Test func withoutJSONTheSameFailuresStaySentences() throws {
        let result = try Ctl(socket: "/nonexistent/streamd.sock").run("ls", "--frobnicate")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: Unknown option '--frobnicate'"), "\(result)")
        let missing = try Ctl(Self.shared).run("info", uniqueStream("json-error"))
        #expect(missing.status == 1 && missing.standardError.hasPrefix("streamctl: no stream named"), "\(missing)")
    }
}
