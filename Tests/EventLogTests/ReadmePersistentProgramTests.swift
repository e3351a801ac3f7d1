import Foundation
import StreamdTestSupport
import Testing

/// The README's persistent block as a stand-alone program (`readme-persistent`), which exits right
/// after its last line: it must print what its comments say, every time.
@Suite struct ReadmePersistentProgramTests {
    @Test func theProgramPrintsTheReplayedValueBeforeItExitsEveryTime() throws {
        for run in 1...20 {
            let directory = TemporaryDirectory()
            let printed = try ChildProcess.run("readme-persistent", [directory.path])
            #expect(printed == ["203.0", "late: response"], "run \(run)")
        }
    }

    @Test func theProgramHoldsTheReadmeBlockVerbatim() throws {
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: "import EventLog\n\nlet log"), "no README block starts with import EventLog")
        let missing = try ReadmeBlocks.missingLine(of: block, inTool: "readme-persistent")
        #expect(missing == nil, "README line not in Tools/readme-persistent/main.swift, in order: \(missing ?? "")")
    }
}
