import Foundation
import Testing
@testable import EventLog

/// The WAL is copied into the database by a thread of its own, and stays bounded however steadily
/// commits come.
@Suite struct BackgroundCheckpointerTests {
    @Test func theWALIsCopiedIntoTheDatabaseBesideTheWriter() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 8
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        #expect(try appendUntilCheckpointed(log, "s", count: 40, pages: 20), "the events never reached the database file")
        #expect(try log.readAll("s").count == 40)
        log.close()
        #expect(try EventLog(path: dir.file()).verify().isClean)
    }

    @Test func withFullDurabilityCommitsCheckpointThemselves() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.durability = .full
        options.checkpointPages = 8
        let log = try EventLog(path: dir.file(), options: options)
        #expect(log.checkpointer == nil)
        try log.createStream("s")
        let before = fileSize(dir.file())
        for index in 0..<40 { try log.append(incompressibleBytes(3_000, seed: UInt64(index + 1)), to: "s") }
        // No waiting: the commits that crossed 8 pages copied the WAL into the database themselves.
        #expect(fileSize(dir.file()) >= before + 20 * 4_096)
        log.close()
        #expect(try EventLog(path: dir.file()).checkpointer != nil, "normal durability checkpoints in the background")
    }

    @Test func theWALStaysBoundedUnderSteadyCommits() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 16
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        for index in 0..<20_000 { try log.append(samplePayload(index), to: "s") }
        // The commit that finds 4 × 16 pages checkpoints itself, so the WAL starts over from about there
        // (a restart can miss while a background pass runs). With passes alone, it held 20 000 frames.
        let frame = 4_096 + 24
        #expect(fileSize(dir.file() + "-wal") <= 32 + 32 * 16 * frame, "the WAL grew to \(fileSize(dir.file() + "-wal")) bytes")
        #expect(try log.readAll("s").count == 20_000)
    }
}
