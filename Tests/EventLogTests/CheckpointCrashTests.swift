import Foundation
import Testing
@testable import EventLog

/// SIGKILL while checkpoints run all the time, in the background and inline: every acknowledged
/// append survives in a database verify finds clean.
@Suite struct CheckpointCrashTests {
    @Test func everyAcknowledgedAppendSurvivesSIGKILLAmidCheckpoints() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        var acknowledgedLast: UInt64 = 0
        for round in 0..<16 {
            // A threshold of 2 pages: nearly every commit wakes the background pass or checkpoints inline.
            let killAfter = Int.random(in: 200...4_000)
            let acknowledged = try CrashSafetyTests().runAndKill(
                child, arguments: [dir.file(), "4", round % 4 == 3 ? "full" : "normal", "2"], afterLines: killAfter)
            acknowledgedLast = max(acknowledgedLast, acknowledged.map(\.upperBound).max() ?? 0)
            try CrashSafetyTests.expectEverythingAcknowledged(through: acknowledgedLast, survivedIn: dir.file(), round: round, streamRequired: true)
        }
        #expect(acknowledgedLast > 0, "the child acknowledged appends")
    }
}
