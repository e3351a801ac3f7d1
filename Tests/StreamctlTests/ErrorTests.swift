import Foundation
import StreamdTestSupport
import Testing

/// What every verb does with bad usage (exit 64), an unknown stream, an invalid name and no daemon (exit 1).
@Suite struct ErrorTests {
    static let shared = SharedDaemon.start()

    static let verbsOnAStream: [[String]] = [
        ["info"], ["tail"], ["truncate", "--keep", "1"], ["rm"], ["config", "--capacity", "1"],
        ["replay", "--to", "elsewhere"], ["export"], ["verify"],
    ]

    @Test(arguments: verbsOnAStream)
    func anUnknownStreamFailsWithItsNameAndExit1(verb: [String]) throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("missing")
        let result = try ctl.run([verb[0], stream] + verb.dropFirst())
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("streamctl: no stream named \"\(stream)\""), "\(result)")
    }

    @Test(arguments: [["info"], ["tail"], ["publish", "x"], ["create"], ["truncate", "--keep", "1"], ["rm"], ["export"], ["import"]])
    func anInvalidNameIsBadUsageAndNeedsNoDaemon(verb: [String]) throws {
        let ctl = Ctl(socket: "/nonexistent/streamd.sock")
        for name in [".hidden", "has space", String(repeating: "n", count: 201)] {
            let result = try ctl.run([verb[0], name] + verb.dropFirst())
            #expect(result.status == 64, "\(verb) \(name): \(result)")
            #expect(result.standardError.contains("stream name"), "\(result)")
        }
    }

    @Test(arguments: [["ls", "--frobnicate"], ["info"], ["nonsense-verb"], ["tail", "s", "--last", "many"], ["publish"],
                      ["replay", "s"], ["stats", "extra"], ["verify", "--db"]])
    func badFlagsExit64WithUsageOnStandardError(arguments: [String]) throws {
        let result = try Ctl(Self.shared).run(arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.isEmpty)
    }

    @Test(arguments: [["ls"], ["info", "s"], ["stats"], ["tail", "s"], ["publish", "s", "x"], ["verify"], ["ls", "--json"]])
    func withNoDaemonTheMessageNamesTheSocketAndHowToStartOne(arguments: [String]) throws {
        let directory = try ShortTemporaryDirectory()
        let result = try Ctl(socket: directory.socket).run(arguments)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("no streamd is listening on \(directory.socket) (the socket file does not exist)"))
        #expect(result.standardError.contains("`swift run streamd`"))
        #expect(result.standardError.contains("`streamd --socket \(directory.socket)`"))
    }

    @Test func theSocketFlagWinsOverTheEnvironment() throws {
        let shared = try Self.shared.get()
        let result = try Ctl(socket: "/nonexistent/streamd.sock").run("ls", "--socket", shared.socket, "--json")
        #expect(result.status == 0, "\(result)")
        #expect(try JSONValue.parse(result.output)["streams"] != nil)
    }

    @Test func socketAndJSONMayAlsoComeBeforeTheVerb() throws {
        let shared = try Self.shared.get()
        let result = try Ctl(socket: "/nonexistent/streamd.sock").run("--socket", shared.socket, "--json", "stats")
        #expect(result.status == 0, "\(result)")
        #expect(try JSONValue.parse(result.output)["socket"]?.string == shared.socket)
        // After the verb wins over before it.
        let inner = try Ctl(socket: "/nonexistent/a.sock").run("--socket", "/nonexistent/b.sock", "ls", "--socket", "/nonexistent/c.sock")
        #expect(inner.status == 1 && inner.standardError.contains("/nonexistent/c.sock"))
    }

    @Test func helpListsEveryVerb() throws {
        let result = try Ctl(socket: "/nonexistent").run("--help")
        #expect(result.status == 0)
        for verb in ["ls", "info", "stats", "tail", "publish", "create", "config", "truncate", "rm", "replay", "export", "import", "verify"] {
            #expect(result.standardOutput.contains("  \(verb) "), "help does not list \(verb)")
        }
    }
}
