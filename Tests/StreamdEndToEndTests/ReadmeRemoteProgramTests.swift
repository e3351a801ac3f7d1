import Foundation
import StreamClient
import StreamdTestSupport
import Testing

/// The README's "shared through streamd" block as a stand-alone program (`readme-remote`), which exits
/// right after its last line: it must print what its comment says, every time.
@Suite struct ReadmeRemoteProgramTests {
    @Test func theProgramPrintsTheReplayedValueBeforeItExitsEveryTime() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        for run in 1...20 {
            let printed = try ChildProcess.run("readme-remote", [daemon.socket])
            #expect(printed == ["203.0"], "run \(run)")
            // Each run starts from an empty "prices", as the README's reader's first run does.
            try await connection.deleteStream("prices")
        }
    }

    @Test func theProgramHoldsTheReadmeBlockVerbatim() throws {
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: "import StreamClient\n"), "no README block starts with import StreamClient")
        let missing = try ReadmeBlocks.missingLine(of: block, inTool: "readme-remote")
        #expect(missing == nil, "README line not in Tools/readme-remote/main.swift, in order: \(missing ?? "")")
    }
}
