import Foundation
import StreamdTestSupport
import Testing

/// The test support's wait for a child's end, which the process tests use instead of `waitUntilExit`.
struct ProcessExitStatusTests {
    private func started(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        return process
    }

    @Test func anExitedChildGivesItsStatus() throws {
        #expect(try started("exit 3").waitForExitStatus() == 3)
    }

    @Test func aKilledChildGivesItsSignal() throws {
        let process = try started("sleep 30")
        kill(process.processIdentifier, SIGKILL)
        #expect(process.waitForExitStatus() == SIGKILL)
    }

    /// The child's own child inherits the socket Foundation watches, so Foundation sees the child's end
    /// only when the grandchild's comes, 30 s later; the wait does not take that long.
    @Test func aChildWhoseChildLivesOnGivesItsStatusWithoutWaitingForTheGrandchild() throws {
        let process = try started("sleep 30 & exit 4")
        let start = Date()
        #expect(process.waitForExitStatus(grace: 0.2) == 4)
        #expect(Date().timeIntervalSince(start) < 15)
    }
}
