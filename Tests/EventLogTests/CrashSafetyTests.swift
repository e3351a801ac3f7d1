import Foundation
import StreamdTestSupport
import Testing
@testable import EventLog

/// Kills a child process that appends as fast as it can, at random moments, and checks that every
/// append it acknowledged survived, with no gap, in a database verify finds clean.
@Suite struct CrashSafetyTests {
    /// The helper binary SwiftPM builds next to the test bundle.
    static var childPath: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("eventlog-crashtest").path
    }

    @Test func everyAcknowledgedAppendSurvivesSIGKILL() throws {
        let child = CrashSafetyTests.childPath
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the eventlog-crashtest target: \(child)")
        let dir = TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        var acknowledgedLast: UInt64 = 0
        // EVENTLOG_CRASH_ROUNDS=500 swift test --filter CrashSafetyTests is the longer stress run.
        let rounds = ProcessInfo.processInfo.environment["EVENTLOG_CRASH_ROUNDS"].flatMap { Int($0) } ?? 24
        for round in 0..<rounds {
            // Kill after a random number of acknowledgements (0 = while the child is still opening).
            let killAfter = round == 0 ? 0 : Int.random(in: 1...3_000, using: &generator)
            let arguments = [dir.file(), "4", round % 6 == 5 ? "full" : "normal", "1000", ["shared", "exclusive", "journal"][round % 3]]
            let acknowledged = try runAndKill(child, arguments: arguments, afterLines: killAfter)
            acknowledgedLast = max(acknowledgedLast, acknowledged.map(\.upperBound).max() ?? 0)

            try Self.expectEverythingAcknowledged(through: acknowledgedLast, survivedIn: dir.file(), round: round, streamRequired: !acknowledged.isEmpty)
        }
        #expect(acknowledgedLast > 0, "the child acknowledged appends")
    }

    /// Opens the log the killed child left at `path` and checks that stream "crash" holds every
    /// sequence through `acknowledged`, with no gap, in a database verify finds clean.
    static func expectEverythingAcknowledged(through acknowledged: UInt64, survivedIn path: String, round: Int, streamRequired: Bool) throws {
        let log = try EventLog(path: path)
        defer { log.close() }
        guard let info = try log.streamInfo("crash") else {
            #expect(!streamRequired, "round \(round): acknowledged appends but no stream")
            return
        }
        #expect(info.lastSequence >= acknowledged, "round \(round): acknowledged \(acknowledged), stored up to \(info.lastSequence)")
        let events = try log.readAll("crash")
        #expect(events.count == Int(info.lastSequence), "round \(round)")
        expectContiguous(events, from: 1)
        let report = try log.verify()
        #expect(report.isClean, "round \(round): \(report)")
    }

    /// Starts the child, reads acknowledged ranges until `afterLines` arrived, SIGKILLs it, then
    /// reads what it printed before it died. Only whole lines count.
    func runAndKill(_ executable: String, arguments: [String], afterLines: Int) throws -> [ClosedRange<UInt64>] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        var pending: [UInt8] = []
        var ranges: [ClosedRange<UInt64>] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var killed = false
        while true {
            if !killed && ranges.count >= afterLines {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let fields = String(decoding: pending[..<newline], as: UTF8.self).split(separator: " ")
                if fields.count == 2, let first = UInt64(fields[0]), let last = UInt64(fields[1]), first <= last {
                    ranges.append(first...last)
                }
                pending.removeSubrange(...newline)
            }
        }
        let status = process.waitForExitStatus()
        // Foundation may miss the child's end (see `waitForExitStatus`), and then traps on
        // `terminationReason`: ask it only once it knows.
        if process.isRunning {
            #expect(status == SIGKILL, "the child should have been killed, not exited: status \(String(describing: status))")
        } else {
            #expect(process.terminationReason == .uncaughtSignal, "the child should have been killed, not exited")
        }
        return ranges
    }
}
