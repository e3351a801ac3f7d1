import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

/// `exclusiveToProcess` beside shared opens of the same file, crashes of an exclusive holder and
/// checkpoints under a reader: the data is the same either way.
@Suite struct ExclusiveLogCompatibilityTests {
    private func options(exclusive: Bool, readOnly: Bool = false) -> EventLogOptions {
        var options = EventLogOptions()
        options.exclusiveToProcess = exclusive
        options.readOnly = readOnly
        options.busyTimeoutMilliseconds = 200
        return options
    }

    @Test(arguments: [true, false])
    func twoLogsOnOneFileInOneProcessOneOfThemExclusiveSeeEachOthersAppends(exclusiveFirst: Bool) throws {
        let dir = TemporaryDirectory()
        let first = try EventLog(path: dir.file(), options: options(exclusive: exclusiveFirst))
        try first.createStream("a")
        let second = try EventLog(path: dir.file(), options: options(exclusive: !exclusiveFirst))
        try second.createStream("b")
        for index in 0..<200 {
            try first.append(samplePayload(index), to: index % 2 == 0 ? "a" : "b")
            try second.append(samplePayload(index), to: index % 2 == 0 ? "b" : "a")
        }
        #expect(try first.readAll("b").count == 200)
        #expect(try second.readAll("a").count == 200)
        first.close()
        try second.append(samplePayload(999), to: "a")
        second.close()
        let reopened = try EventLog(path: dir.file(), options: options(exclusive: true))
        defer { reopened.close() }
        #expect(try reopened.readAll("a").count == 201)
        #expect(try reopened.verify().isClean)
    }

    @Test func aKilledExclusiveHoldersLogReadsCompletelyWhenOpenedReadOnly() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        // Checkpoint rarely, so the acknowledged appends are still in the WAL when it dies.
        let acknowledged = try CrashSafetyTests().runAndKill(
            child, arguments: [dir.file(), "2", "normal", "100000", "exclusive"], afterLines: 300)
        let last = try #require(acknowledged.map(\.upperBound).max())
        #expect(FileManager.default.fileExists(atPath: dir.file() + "-wal"))
        for exclusive in [false, true] {
            let log = try EventLog(path: dir.file(), options: options(exclusive: exclusive, readOnly: true))
            defer { log.close() }
            let info = try #require(try log.streamInfo("crash"), "exclusive: \(exclusive)")
            #expect(info.lastSequence >= last, "exclusive: \(exclusive)")
            #expect(try log.readAll("crash").count == Int(info.lastSequence), "exclusive: \(exclusive)")
            #expect(try log.verify().isClean, "exclusive: \(exclusive)")
        }
    }

    /// A `-shm` left by a killed shared run must not mask what a later exclusive run committed.
    @Test func aStaleShmFileFromASharedRunDoesNotHideAnExclusiveRunsCommits() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        var last: UInt64 = 0
        for (round, mode) in ["shared", "exclusive", "shared", "exclusive"].enumerated() {
            let acknowledged = try CrashSafetyTests().runAndKill(
                child, arguments: [dir.file(), "2", "normal", "100000", mode], afterLines: 200)
            last = max(last, acknowledged.map(\.upperBound).max() ?? 0)
            if round == 0 { #expect(FileManager.default.fileExists(atPath: dir.file() + "-shm")) }
        }
        for exclusive in [false, true] {
            let log = try EventLog(path: dir.file(), options: options(exclusive: exclusive, readOnly: true))
            defer { log.close() }
            let info = try #require(try log.streamInfo("crash"))
            #expect(info.lastSequence >= last, "exclusive: \(exclusive)")
            #expect(try log.verify().isClean)
        }
    }

    @Test func checkpointWhileAReaderHoldsASnapshotBehavesAsWithoutTheOption() throws {
        var outcomes: [String] = []
        for exclusive in [false, true] {
            let dir = TemporaryDirectory()
            let log = try EventLog(path: dir.file(), options: options(exclusive: exclusive))
            defer { log.close() }
            try log.createStream("s")
            for index in 0..<50 { try log.append(samplePayload(index), to: "s") }
            var outcome = ""
            var seen = 0
            try log.read("s", from: .streamDefault) { _ in
                seen += 1
                if seen == 1 {
                    do { try log.checkpoint(); outcome = "ok" } catch let error as EventLogError { outcome = "\(error.code)" } catch { outcome = "\(error)" }
                    do { try log.append(samplePayload(999), to: "s") } catch { outcome += " append: \(error)" }
                }
                return true
            }
            outcome += " seen \(seen)"
            #expect(try log.readAll("s").count == 51)
            outcomes.append(outcome)
        }
        #expect(outcomes[0] == outcomes[1], "shared: \(outcomes[0]); exclusive: \(outcomes[1])")
    }
}
