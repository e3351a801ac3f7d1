import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

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
        // Each cycle ends with commits held, so the WAL starts over after it; should a cycle lag, the
        // commit that finds 4 × 16 pages checkpoints itself. With passes alone, it held 20 000 frames.
        let frame = 4_096 + 24
        #expect(fileSize(dir.file() + "-wal") <= 32 + 32 * 16 * frame, "the WAL grew to \(fileSize(dir.file() + "-wal")) bytes")
        #expect(try log.readAll("s").count == 20_000)
    }

    /// A log in `dir` with stream "s", whose checkpointer starts a cycle every 64 pages.
    private func logCheckpointingEvery64Pages(_ dir: TemporaryDirectory) throws -> (EventLog, BackgroundCheckpointer) {
        var options = EventLogOptions()
        options.checkpointPages = 64
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        return (log, try #require(log.checkpointer))
    }

    @Test func eachCycleCopiesTheWALToItsEndSoTheNextCommitStartsItOver() throws {
        let dir = TemporaryDirectory()
        let (log, checkpointer) = try logCheckpointingEvery64Pages(dir)
        defer { log.close() }
        let commits = 3_000
        for index in 0..<commits { try log.append(samplePayload(index), to: "s") }
        let done = checkpointer.done
        // With commits held for its second pass and no reader about, every cycle reaches the WAL's end.
        #expect(done.cycles >= 3, "\(done)")
        #expect(done.cyclesToTheEnd == done.cycles, "\(done)")
        // A cycle needs 64 new pages, a commit adds at least one: no pass follows another for nothing.
        #expect(done.cycles <= commits / 64 + 1, "\(done)")
    }

    @Test func aReaderKeepingItsSnapshotMakesCyclesWaitForMorePagesNotRepeat() throws {
        let dir = TemporaryDirectory()
        let (log, checkpointer) = try logCheckpointingEvery64Pages(dir)
        defer { log.close() }
        try log.append(samplePayload(0), to: "s")
        let reader = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        try reader.execute("BEGIN")
        #expect(try reader.integer("SELECT count(*) FROM blocks") == 1)
        let commits = 2_000
        for index in 1...commits { try log.append(samplePayload(index), to: "s") }
        let held = checkpointer.done
        #expect(held.cyclesToTheEnd == 0, "\(held)")
        #expect(held.cycles <= commits / 64 + 1, "\(held)")
        try reader.execute("COMMIT")
        // Once the reader lets go, the WAL is copied to its end again and starts over.
        for index in 0..<1_000 { try log.append(samplePayload(commits + 1 + index), to: "s") }
        #expect(checkpointer.done.cyclesToTheEnd > 0, "\(checkpointer.done)")
        // The file keeps its size; the frames in use are what started over.
        let probe = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 100)
        let frames = try probe.statement("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(try frames.step())
        #expect(frames.int64(1) < 4 * 64, "the WAL held \(frames.int64(1)) frames")
        #expect(try log.readAll("s").count == commits + 1_001)
    }
}
