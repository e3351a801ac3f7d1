import Foundation
import StreamClient
import StreamdTestSupport
import Testing

/// "Did you mean": an unknown verb suggests the closest verb (still bad usage, exit 64), and an unknown
/// stream the closest existing streams (exit 1), only when they are close.
@Suite struct SuggestionTests {
    static let shared = SharedDaemon.start()

    @Test(arguments: [("tial", "tail"), ("lss", "ls"), ("inof", "info"), ("trunc", "truncate"), ("exprot", "export"), ("confg", "config")])
    func aMistypedVerbSuggestsTheClosestVerb(typed: String, meant: String) throws {
        let result = try Ctl(socket: "/nonexistent/streamd.sock").run(typed, "orders")
        #expect(result.status == 64, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "streamctl: no verb '\(typed)'; did you mean '\(meant)'? `streamctl --help` lists the verbs.\n", "\(result)")
    }

    @Test func aWordFarFromEveryVerbGetsNoGuessAndOptionsBeforeTheVerbAreSkipped() throws {
        let ctl = Ctl(socket: "/nonexistent/streamd.sock")
        let far = try ctl.run("frobnicate")
        #expect(far.status == 64)
        #expect(far.standardError == "streamctl: no verb 'frobnicate'. `streamctl --help` lists the verbs.\n", "\(far)")
        let after = try ctl.run("--socket", "/tmp/x.sock", "--json", "pubish", "s", "x")
        #expect(after.status == 64)
        #expect(try JSONValue.parse(after.standardError)["error"]?["suggestions"]?[0]?.string == "publish", "\(after)")
        // A known verb with bad options keeps the parser's own message.
        let known = try ctl.run("tail")
        #expect(known.status == 64 && known.standardError.contains("Missing expected argument '<stream>'"), "\(known)")
    }

    @Test(arguments: [["info"], ["tail"], ["rm"], ["truncate", "--keep", "1"], ["config", "--capacity", "5"], ["export"]])
    func aMistypedStreamSuggestsTheClosestStreams(verb: [String]) throws {
        let ctl = try Ctl(Self.shared)
        let base = uniqueStream("suggest")
        let orders = base + "-orders"
        try ctl.succeed("publish", orders, "x")
        try ctl.succeed("publish", base + "-orderz", "x")
        let typed = base + "-ordres"
        let result = try ctl.run([verb[0], typed] + verb.dropFirst())
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix(
            "streamctl: no stream named \"\(typed)\"; did you mean \"\(orders)\" or \"\(base)-orderz\"? (daemon "), "\(result)")
        // export --json prints its summary, so it needs a file for the events.
        let directory = try ShortTemporaryDirectory()
        let output = verb[0] == "export" ? ["--output", directory.path + "/events.ndjson"] : []
        let json = try ctl.run([verb[0], typed] + verb.dropFirst() + output + ["--json"])
        #expect(json.standardOutput.isEmpty, "\(json)")
        #expect(json.status == 1)
        let document = try JSONValue.parse(json.standardError)
        #expect(document["error"]?["code"]?.string == "stream_not_found")
        #expect(document["error"]?["suggestions"]?.array?.compactMap(\.string) == [orders, base + "-orderz"])
        #expect(try ctl.json("info", orders)["count"]?.int == 1)
    }

    @Test func aStreamFarFromEveryNameGetsTheCreateHintInstead() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("nothing-like-it")
        let result = try ctl.run("info", stream)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix(
            "streamctl: no stream named \"\(stream)\"; create it with `streamctl create \(stream)` or publish to it"), "\(result)")
        #expect(!result.standardError.contains("did you mean"))
    }
}

/// The suggestion's work stays small with many long, alike stream names (its own daemon, so the other
/// tests' listings stay short).
@Suite struct ManyStreamSuggestionTests {
    @Test func twoThousandLongAlikeNamesStillGiveTheClosestQuickly() async throws {
        let fixture = try DaemonFixture()
        let prefix = String(repeating: "tenant.region.service.", count: 8)  // 176 characters shared by every name
        let connection = try await StreamConnection.connect(socketPath: fixture.socket)
        for index in 0..<2_000 {
            _ = try await connection.createStream(prefix + "stream-\(100_000 + index)")
        }
        connection.close()
        let typed = prefix + "strema-101324"
        let started = Date()
        let result = try Ctl(socket: fixture.socket).run("info", typed, "--json")
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 1, "\(result)")
        let suggestions = try JSONValue.parse(result.standardError)["error"]?["suggestions"]?.array?.compactMap(\.string) ?? []
        #expect(suggestions.first == prefix + "stream-101324", "\(suggestions)")
        #expect(suggestions.count == 3)
        #expect(seconds < 10, "listing 2000 streams and ranking their names took \(seconds) s")
        print("ManyStreamSuggestionTests: streamctl info with a suggestion among 2000 names of 189 characters took \(String(format: "%.2f", seconds)) s")
    }
}
