import Foundation
import StreamClient
import StreamdTestSupport
import Testing

/// The README's "one example, three doors" block as a stand-alone program (`readme-doors`): the same
/// function, written once, prints 203.0 for an in-process, a persistent and a remote replay subject,
/// every time, and the program exits right after.
@Suite struct ReadmeDoorsProgramTests {
    @Test func theFunctionWrittenOncePrintsTheReplayedValueAtEachDoorEveryTime() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        for run in 1...10 {
            let directory = try ShortTemporaryDirectory()
            let printed = try ChildProcess.run("readme-doors", [directory.path, daemon.socket])
            #expect(printed == ["203.0", "203.0", "203.0"], "run \(run)")
            // Each run starts from an empty "prices" at every door, as a reader's first run does.
            try await connection.deleteStream("prices")
        }
    }

    @Test func theProgramHoldsTheReadmeBlockVerbatim() throws {
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: "import EventLog\nimport StreamClient\n"), "no README block starts with the function written once")
        let missing = try ReadmeBlocks.missingLine(of: block, inTool: "readme-doors")
        #expect(missing == nil, "README line not in Tools/readme-doors/main.swift, in order: \(missing ?? "")")
    }
}
