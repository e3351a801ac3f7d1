import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// Every program of the package says the one version the package defines.
@Suite struct VersionTests {
    @Test(arguments: ["streamd", "streamctl", "streambench"])
    func eachProgramPrintsThePackagesVersion(program: String) throws {
        let result = try ToolProcess.run(program, ["--version"])
        #expect(result.status == 0, "\(result)")
        let printed = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed == StreamdVersion.current || printed == "\(program) \(StreamdVersion.current)", "\(result)")
    }
}
