import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

/// The background checkpointer beside the edges of a log's life: extreme thresholds, an explicit
/// `checkpoint()` racing a background pass, and `close()`.
@Suite struct CheckpointerLifetimeTests {
    /// The file descriptors of this process open on files under `directory`.
    private func openFiles(under directory: String) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(directory) }
    }

    @Test func aHugeCheckpointThresholdIsAcceptedAndAppendsWork() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = .max
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        for index in 0..<3 { try log.append(samplePayload(index), to: "s") }
        #expect(try log.readAll("s").count == 3)
        log.close()
    }

    @Test func checkpointEmptiesTheWALEvenWhileABackgroundPassRuns() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        // Each commit adds about 50 pages to the emptied WAL: between the threshold and four times it,
        // so it wakes the background thread, and checkpoint() keeps meeting its passes.
        options.checkpointPages = 32
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        for index in 0..<200 {
            try log.append(incompressibleBytes(200_000, seed: UInt64(index + 1)), to: "s")
            try log.checkpoint()
            let wal = fileSize(dir.file() + "-wal")
            guard wal == 0 else {
                Issue.record("after checkpoint() \(index + 1) the WAL still held \(wal) bytes")
                return
            }
        }
    }

    @Test func checkpointSaysBusyWhenAReaderKeepsItsSnapshot() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.busyTimeoutMilliseconds = 100
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        try log.append([1], to: "s")
        let reader = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 100)
        try reader.execute("BEGIN")
        #expect(try reader.integer("SELECT count(*) FROM blocks") == 1)
        try log.append([2], to: "s")
        let error = expectLogError(.busy) { try log.checkpoint() }
        #expect(error?.message.contains("try again") == true, "\(String(describing: error))")
        try reader.execute("COMMIT")
        try log.checkpoint()
        #expect(fileSize(dir.file() + "-wal") == 0)
    }

    @Test func closeLetsGoOfEveryFileEvenWhileTheLogIsStillReferenced() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 4
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        // Wait for a background pass, so the checkpointer's connection has opened the database.
        try #require(try appendUntilCheckpointed(log, "s", count: 20, pages: 4), "no background pass ran")
        // The check below means something only if the log's open files are found under its directory.
        #expect(!openFiles(under: dir.path).isEmpty, "the open log's files are not found under \(dir.path)")
        log.close()
        withExtendedLifetime(log) {
            #expect(openFiles(under: dir.path).isEmpty, "still open after close(): \(openFiles(under: dir.path))")
            #expect(!FileManager.default.fileExists(atPath: dir.file() + "-wal"), "close() left the WAL behind")
        }
    }
}
