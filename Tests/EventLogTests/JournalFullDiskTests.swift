import Foundation
import StreamdTestSupport
import Testing
@testable import EventLog

/// A journaled log whose database fills: what the journal acknowledged is never lost, appends are
/// refused until there is room, and a truncation makes the room, after which the acknowledged events
/// are stored and sequences go on without a gap.
@Suite struct JournalFullDiskTests {
    @Test func acknowledgedAppendsSurviveAFullDatabaseAndGoInOnceATruncationMadeRoom() throws {
        let dir = TemporaryDirectory()
        var options = JournalTests.journaled()
        // Room for more than the journal holds before it starts over (4 MiB): however far the writer
        // lags, a truncation makes room for every append the journal acknowledged.
        options.maximumPageCount = 2_500
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        try log.createStream("t")
        let (acknowledged, refusal) = appendUntilRefused(to: "s", of: log, atMost: 20_000)
        let error = try #require(refusal, "the database should have filled")
        #expect(error.code == .diskFull, "\(error)")
        #expect(acknowledged > 0)
        // Every later append is refused too, to any stream, with the same advice.
        let again = expectLogError(.diskFull) { try log.append([1], to: "t") }
        #expect(again?.message.contains("truncate or delete streams") == true, "\(again?.message ?? "")")

        // The truncation keeps the last event the database holds; those only the journal held go in after it.
        try log.truncate("s", keepingLast: 1)
        let info = try #require(try log.streamInfo("s"))
        #expect(info.lastSequence == acknowledged, "nothing acknowledged is lost")
        let events = try log.readAll("s", from: .all)
        #expect(events.last?.payload == incompressibleBytes(2_000, seed: acknowledged))
        expectContiguous(events, from: events.first?.sequence ?? 0)
        #expect(try log.append([1, 2, 3], to: "s").sequence == acknowledged + 1)
        #expect(try log.append([4], to: "t").sequence == 1)
        #expect(try log.verify().isClean)
    }

    @Test func aLogOpenedOnAFullDiskKeepsWhatOnlyItsJournalHeldAndStoresItOnceThereIsRoom() throws {
        let crash = TemporaryDirectory()
        let payload = { (index: Int) in incompressibleBytes(2_000, seed: UInt64(index + 1)) }
        let image = try JournalTests.imageWithJournalOnly((5..<25).map(payload), in: crash) { log in
            try log.createStream("s")
            try log.createStream("filler")
            for index in 0..<40 { try log.append(incompressibleBytes(2_000, seed: UInt64(1_000 + index)), to: "filler") }
            for index in 0..<5 { try log.append(payload(index), to: "s") }
        }

        // The database may not grow: the 20 appends only the journal held do not fit.
        var options = JournalTests.journaled()
        options.maximumPageCount = try SQLiteConnection(path: image, readOnly: true, create: false, busyTimeoutMilliseconds: 1_000)
            .integer("PRAGMA page_count")
        let reopened = try EventLog(path: image, options: options)
        defer { reopened.close() }
        expectLogError(.diskFull) { try reopened.append([1], to: "s") }
        #expect(try reopened.streamInfo("s")?.lastSequence == 5, "the catalog shows what the database holds")
        let waiting = expectLogError(.diskFull) { _ = try reopened.readAll("s", from: .all) }
        #expect(waiting?.message.contains("reads are refused until the log can move the appends it acknowledged") == true, "\(waiting?.message ?? "")")

        // Deleting the filler makes room: the 20 go in, and sequences go on after them.
        try reopened.deleteStream("filler")
        #expect(try reopened.readAll("s", from: .all).map(\.payload) == (0..<25).map(payload))
        #expect(try reopened.append([1], to: "s").firstSequence == 26, "no acknowledged sequence is handed out again")
        #expect(try reopened.verify().isClean)

        // The journal went on after the records it kept: a crash now loses nothing either.
        let crashAgain = TemporaryDirectory()
        let again = try JournalTests.crashImage(of: image, into: crashAgain)
        let recovered = try EventLog(path: again, options: JournalTests.journaled())
        defer { recovered.close() }
        #expect(try recovered.readAll("s", from: .all).map(\.payload) == (0..<25).map(payload) + [[1]])
    }

    /// A journal write that the disk cuts short leaves whole records of its group in the file; they
    /// must not be read back (their appenders were told the write failed), or the next open would store
    /// them. Mounting a tmpfs needs root (CI runs as root).
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aJournalWriteCutShortByAFullDiskLeavesNoRecordBehind() throws {
        let dir = TemporaryDirectory()
        let mount = dir.file("disk")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ToolProcess.run(path: "/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount]).status == 0)
        defer { _ = try? ToolProcess.run(path: "/bin/umount", [mount]) }
        let journal = try #require(try Journal.open(forDatabase: mount + "/db.sqlite", durability: .normal, creating: true))
        try journal.reset()
        let record = { (sequence: UInt64, bytes: Int) in
            JournalRecord(kind: .value, streamID: 1, streamCreated: 1, firstSequence: sequence, timestamp: 1, payloads: [incompressibleBytes(bytes)])
        }
        try journal.append(journal.encode([record(1, 100)]))
        // Leave about 64 KiB free: a group of a small record and a 300 KB one fills the disk after the first.
        var status = statvfs()
        #expect(statvfs(mount, &status) == 0)
        let free = Int(status.f_bavail) * Int(status.f_frsize)
        #expect(FileManager.default.createFile(atPath: mount + "/filler", contents: Data(count: max(0, free - 64 * 1024))))
        let refused = expectLogError(.diskFull) { try journal.append(journal.encode([record(2, 100), record(3, 300_000)])) }
        #expect(refused != nil)
        #expect(try journal.records().map(\.firstSequence) == [1], "only the write that succeeded is read back")
        // The space the failed write took came back: a small group fits again, where the next write goes.
        try journal.append(journal.encode([record(2, 100)]))
        #expect(try journal.records().map(\.firstSequence) == [1, 2])
    }
}
