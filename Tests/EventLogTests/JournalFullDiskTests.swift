import Testing
@testable import EventLog

/// A journaled log whose database fills: what the journal acknowledged is never lost, appends are
/// refused until there is room, and a truncation makes the room, after which the acknowledged events
/// are stored and sequences go on without a gap.
@Suite struct JournalFullDiskTests {
    @Test func acknowledgedAppendsSurviveAFullDatabaseAndGoInOnceATruncationMadeRoom() throws {
        let dir = TemporaryDirectory()
        var options = JournalTests.journaled()
        options.maximumPageCount = 400
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        try log.createStream("t")
        var acknowledged: UInt64 = 0
        var refusal: EventLogError?
        for index in 0..<5_000 {
            do {
                acknowledged = try log.append(incompressibleBytes(2_000, seed: UInt64(index + 1)), to: "s").sequence
            } catch let error as EventLogError {
                refusal = error
                break
            }
        }
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
}
