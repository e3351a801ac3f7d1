import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

/// Deletions give their space back to the file system: by themselves in steps after large ones, and
/// at once with `compact()`, which also converts a file made without incremental auto-vacuum.
@Suite struct SpaceReclaimTests {
    /// A log that reclaims past 512 KiB rather than the default 4 MiB: these small events compress to
    /// about 14 bytes each, and a debug build fills the default's worth too slowly for a test.
    static func open(_ path: String) throws -> EventLog {
        var options = EventLogOptions()
        options.reclaimThresholdBytes = 512 << 10
        return try EventLog(path: path, options: options)
    }

    /// Bytes of the database file alone (the WAL aside).
    static func fileBytes(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : -1
    }

    /// Appends `count` small events to each of `streams`, in appends of 1 000.
    static func fill(_ log: EventLog, _ streams: [String], count: Int) throws {
        for stream in streams {
            try log.ensureStream(stream)
            for start in stride(from: 0, to: count, by: 1_000) {
                try log.append(contentsOf: (start..<min(count, start + 1_000)).map(samplePayload), to: stream)
            }
        }
    }

    /// Waits up to `seconds` for `condition`; returns whether it held.
    static func eventually(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    static func autoVacuum(_ path: String) throws -> Int64 {
        let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeoutMilliseconds: 2_000)
        return try connection.integer("PRAGMA auto_vacuum")
    }

    @Test func aNewLogIsCreatedWithIncrementalAutoVacuum() throws {
        let dir = TemporaryDirectory()
        try EventLog(path: dir.file()).close()
        #expect(try Self.autoVacuum(dir.file()) == 2)
    }

    /// The scenario, scaled to a debug build: three large streams removed, one small one kept.
    @Test func removingLargeStreamsShrinksTheFileToNearWhatIsStoredByItself() throws {
        let dir = TemporaryDirectory()
        let log = try Self.open(dir.file())
        defer { log.close() }
        try Self.fill(log, ["big.1", "big.2", "big.3"], count: 100_000)
        try Self.fill(log, ["kept"], count: 20_000)
        try log.checkpoint()
        let full = Self.fileBytes(dir.file())
        for stream in ["big.1", "big.2", "big.3"] { try log.deleteStream(stream) }
        let stored = Int64(try log.storageFigures().storedBytes)
        // Nothing else is published: the file shrinks from the steps and the checkpoint they end with.
        let shrank = Self.eventually { Self.fileBytes(dir.file()) < stored + (1 << 20) }
        #expect(shrank, "the file stayed \(Self.fileBytes(dir.file())) bytes (from \(full)) for \(stored) stored")
        #expect(full > 4 * stored)
        #expect(log.reclaimedBytes >= (full - Self.fileBytes(dir.file())) / 2)
        #expect(try log.readAll("kept").count == 20_000)
        #expect(try log.verify().problems.isEmpty)
    }

    @Test func truncatingAStreamGivesItsSpaceBack() throws {
        let dir = TemporaryDirectory()
        let log = try Self.open(dir.file())
        defer { log.close() }
        try Self.fill(log, ["s"], count: 250_000)
        try log.checkpoint()
        let full = Self.fileBytes(dir.file())
        try log.truncate("s", keepingLast: 1_000)
        let shrank = Self.eventually { Self.fileBytes(dir.file()) < full / 4 }
        #expect(shrank, "the file stayed \(Self.fileBytes(dir.file())) bytes from \(full)")
        expectContiguous(try log.readAll("s"), from: 249_001)
    }

    /// Below the threshold freed pages stay for appends to reuse: steady retention never churns the file.
    @Test func smallDeletionsAreLeftForAppendsToReuse() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.reclaimThresholdBytes = 64 << 20
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try Self.fill(log, ["a", "b"], count: 100_000)
        try log.deleteStream("a")
        try log.checkpoint()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(log.reclaimedBytes == 0)
        let free = try SQLiteConnection(path: dir.file(), readOnly: true, create: false, busyTimeoutMilliseconds: 2_000)
            .integer("PRAGMA freelist_count")
        #expect(free > 0)
    }

    @Test func compactGivesEverythingBackAtOnceAndReportsIt() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.reclaimThresholdBytes = 0
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try Self.fill(log, ["a", "b"], count: 100_000)
        try log.deleteStream("a")
        try log.checkpoint()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(log.reclaimedBytes == 0, "automatic reclaim is off")
        let report = try log.compact()
        #expect(!report.rewrote)
        #expect(report.bytesAfter == DatabaseFiles.bytes(dir.file()))
        #expect(report.reclaimedBytes > report.bytesAfter / 2, "\(report)")
        #expect(log.reclaimedBytes >= report.reclaimedBytes)
        #expect(try log.readAll("b").count == 100_000)
    }

    /// A version-2 file of an earlier build (auto-vacuum off) never shrinks in steps; compact rewrites
    /// it once and switches it, after which it does.
    @Test func compactRewritesAnOldFormatFileOnceAndSwitchesItToIncremental() throws {
        let dir = TemporaryDirectory()
        try rawSQL(dir.file(), Schema.current)
        #expect(try Self.autoVacuum(dir.file()) == 0)
        let log = try Self.open(dir.file())
        defer { log.close() }
        try Self.fill(log, ["a", "b"], count: 100_000)
        try log.deleteStream("a")
        try log.checkpoint()
        let before = Self.fileBytes(dir.file())
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.fileBytes(dir.file()) == before, "an old-format file cannot shrink in steps")
        let report = try log.compact()
        #expect(report.rewrote)
        #expect(report.reclaimedBytes > before / 3, "\(report)")
        #expect(try Self.autoVacuum(dir.file()) == 2)
        #expect(try log.readAll("b").count == 100_000)
        #expect(try log.verify().problems.isEmpty)
        // From now on it reclaims by itself.
        try Self.fill(log, ["c"], count: 150_000)
        try log.checkpoint()
        let grown = Self.fileBytes(dir.file())
        try log.deleteStream("c")
        #expect(Self.eventually { Self.fileBytes(dir.file()) < grown / 2 })
        #expect(try log.compact().rewrote == false)
    }

    /// A publish waits for one step at most: appends one at a time beside a reclaim run never wait long.
    /// A loaded machine may stall any one append, so the run is made again (up to three times) when
    /// its longest wait is too long; a reclaim that held the writer for the whole file fails every run.
    @Test func appendsGoOnWhileTheFileShrinks() throws {
        var waits: [Double] = []
        var passed = false
        for _ in 0..<3 {
            let dir = TemporaryDirectory()
            let log = try Self.open(dir.file())
            defer { log.close() }
            try Self.fill(log, ["big.1", "big.2"], count: 150_000)
            try log.checkpoint()
            let full = Self.fileBytes(dir.file())
            try log.deleteStream("big.1")
            try log.deleteStream("big.2")
            var longest = 0.0
            var appended = 0
            let shrinkStarted = Date()
            let deadline = shrinkStarted.addingTimeInterval(30)
            while Self.fileBytes(dir.file()) > full / 3 && Date() < deadline {
                let started = Date()
                if appended == 0 { try log.ensureStream("live") }
                try log.append(samplePayload(appended), to: "live")
                longest = max(longest, Date().timeIntervalSince(started))
                appended += 1
            }
            #expect(Self.fileBytes(dir.file()) <= full / 3)
            #expect(try log.readAll("live").count == appended)
            // A step aims at 1 ms; 250 ms leaves room for a loaded 2-core machine and a debug build,
            // and is still far below what one vacuum of the whole file would hold the writer: about the
            // whole shrink, which a machine slow enough to pass 250 ms stretches too (then a tenth of it
            // is the bound).
            let bound = max(0.25, Date().timeIntervalSince(shrinkStarted) / 10)
            waits.append(longest)
            if longest < bound { passed = true; break }
        }
        #expect(passed, "the longest append of each run waited \(waits) s")
    }
}
