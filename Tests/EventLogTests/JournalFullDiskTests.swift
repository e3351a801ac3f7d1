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
        #expect(waiting?.message.contains("reads wait") == true, "\(waiting?.message ?? "")")

        // Deleting the filler makes room: the 20 go in, and sequences go on after them.
        try reopened.deleteStream("filler")
        #expect(try reopened.readAll("s", from: .all).map(\.payload) == (0..<25).map(payload))
        #expect(try reopened.append([1], to: "s").firstSequence == 26, "no acknowledged sequence is handed out again")
        #expect(try reopened.verify().isClean)
    }
}
