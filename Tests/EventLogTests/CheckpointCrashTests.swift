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
            let log = try EventLog(path: dir.file())
            defer { log.close() }
            let info = try #require(try log.streamInfo("crash"), "round \(round): no stream")
            #expect(info.lastSequence >= acknowledgedLast, "round \(round): acknowledged \(acknowledgedLast), stored up to \(info.lastSequence)")
            let events = try log.readAll("crash")
            #expect(events.count == Int(info.lastSequence), "round \(round)")
            expectContiguous(events, from: 1)
            let report = try log.verify()
            #expect(report.isClean, "round \(round): \(report)")
        }
        #expect(acknowledgedLast > 0, "the child acknowledged appends")
    }
}
