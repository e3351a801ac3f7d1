import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

/// A damaged WAL makes SQLite drop its tail on open (issue 14, defect 11): the log must notice that it
/// went backwards, refuse to carry on silently, and never hand out a sequence a client may have seen.
@Suite struct LostEventsTests {
    /// Kills a writer that appends to stream "crash" after `lines` acknowledgements, with the WAL never
    /// checkpointed, and returns the last sequence it acknowledged.
    private func killWriter(_ path: String, afterLines lines: Int) throws -> UInt64 {
        let ranges = try CrashSafetyTests().runAndKill(
            CrashSafetyTests.childPath, arguments: [path, "1", "normal", "1000000", "shared"], afterLines: lines)
        return try #require(ranges.map(\.upperBound).max())
    }

    /// Flips bytes in the page of the WAL frame halfway through the file: SQLite's frame checksums then
    /// end the WAL there, and every commit after it is dropped when the log is opened.
    private func damageWAL(_ path: String) throws -> Int {
        let wal = path + "-wal"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wal)))
        let frame = 24 + 4096
        let frames = (bytes.count - 32) / frame
        try #require(frames > 20, "the WAL holds \(frames) frames")
        let offset = 32 + (frames / 2) * frame + 24 + 200
        for index in offset..<(offset + 16) { bytes[index] ^= 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: wal))
        return frames
    }

    @Test func aLogWhoseWALLostItsTailIsRefusedThenContinuesPastEverySequenceItAcknowledged() throws {
        let dir = TemporaryDirectory()
        let path = dir.file()
        let acknowledged = try killWriter(path, afterLines: 600)
        _ = try damageWAL(path)

        let refusal = try #require(expectLogError(.lostEvents) { _ = try EventLog(path: path) })
        #expect(refusal.message.contains(path + ".marks"), "\(refusal.message)")
        #expect(refusal.message.contains("stream \"crash\""), "\(refusal.message)")
        #expect(refusal.message.contains("--accept-lost-events"), "\(refusal.message)")
        let lost = try #require(refusal.sequences)
        // The mark is written when a commit is acknowledged, so it may be one commit (at most 17 events
        // from the child's one thread) past the last acknowledgement the killed child got to print.
        #expect(lost.upperBound >= acknowledged && lost.upperBound <= acknowledged + 17, "the loss ends at the last acknowledged sequence (\(lost), \(acknowledged) printed)")
        let marked = lost.upperBound
        // Refused again: the refusal changed nothing.
        expectLogError(.lostEvents) { _ = try EventLog(path: path) }

        var readOnly = EventLogOptions()
        readOnly.readOnly = true
        let offline = try EventLog(path: path, options: readOnly)
        let offlineReport = try offline.verify()
        offline.close()
        #expect(offlineReport.problems.contains { $0.stream == "crash" && $0.sequences == lost }, "\(offlineReport)")

        var accepting = EventLogOptions()
        accepting.acceptLostEvents = true
        let log = try EventLog(path: path, options: accepting)
        let info = try #require(try log.streamInfo("crash"))
        #expect(info.lastSequence == marked)
        let receipt = try log.append([1, 2, 3], to: "crash")
        #expect(receipt.firstSequence == marked + 1, "no acknowledged sequence is handed out again")
        let report = try log.verify()
        #expect(report.problems.contains { $0.message.contains("went backwards") }, "\(report)")
        #expect(report.problems.contains { $0.stream == "crash" && $0.message.contains("missing") }, "\(report)")
        log.close()

        // Accepted once, the log opens as usual, and verify keeps reporting the loss.
        let reopened = try EventLog(path: path)
        defer { reopened.close() }
        #expect(try reopened.append([4], to: "crash").firstSequence == marked + 2)
        #expect(try !reopened.verify().isClean)
    }

    @Test func anUndamagedLogOpensAfterAKillAndItsMarksFollowDeletesAndRecreations() throws {
        let dir = TemporaryDirectory()
        let path = dir.file()
        let acknowledged = try killWriter(path, afterLines: 200)
        let log = try EventLog(path: path)
        #expect(try log.streamInfo("crash")?.lastSequence ?? 0 >= acknowledged)
        try log.append([1], to: "crash")
        try log.deleteStream("crash")
        try log.createStream("crash")
        try log.append([2], to: "crash")
        #expect(try log.verify().isClean)
        log.close()
        let again = try EventLog(path: path)
        defer { again.close() }
        #expect(try again.streamInfo("crash")?.lastSequence == 1)
        #expect(try again.verify().isClean)
    }

    @Test func theMarksFileIsNotFollowedThroughASymbolicLink() throws {
        let dir = TemporaryDirectory()
        let path = dir.file()
        let target = dir.file("victim")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: path + ".marks", withDestinationPath: target)
        let error = try #require(expectLogError(.io) { _ = try EventLog(path: path) })
        #expect(error.message.contains(".marks"), "\(error.message)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }
}
