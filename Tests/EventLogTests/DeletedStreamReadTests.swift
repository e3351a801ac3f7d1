import Testing
@testable import EventLog

/// Readers that outlive their stream: stream ids are reused, so a read that goes on by id after its
/// stream was deleted would deliver the events of the next stream given that id.
@Suite struct DeletedStreamReadTests {
    @Test func aReadWhoseStreamIsDeletedMidwayDeliversNoEventOfTheStreamThatTakesItsID() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 1
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        for name in ["a", "b", "c"] { try log.createStream(name) }
        // More blocks than one page of a read (32), so the read fetches a second page after the delete.
        try log.append(contentsOf: (0..<80).map { _ in [0xB] }, to: "b")
        var payloads: [[UInt8]] = []
        try log.read("b") { event in
            payloads.append(Array(event.payload))
            if event.sequence == 1 {
                try log.deleteStream("b")
                try log.createStream("d")
                try log.append(contentsOf: (0..<80).map { _ in [0xD] }, to: "d")
            }
            return true
        }
        #expect(try log.streamInfo("d") != nil)
        let leaked = payloads.filter { $0 == [0xD] }.count
        #expect(leaked == 0, "b's read delivered \(leaked) events of d")
    }

    @Test func aCursorOverADeletedStreamNeverReadsTheStreamThatTakesItsID() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 2
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        for name in ["a", "b", "c"] { try log.createStream(name) }
        try log.append(contentsOf: [[1], [2], [3]], to: "b")
        let cursor = try log.events(in: "b", from: .all)
        #expect(try cursor.next()?.payload == [1])

        try log.deleteStream("b")
        try log.createStream("d")
        #expect(try catalogStreamIDs(dir.file())["d"] == 2)
        try log.append(contentsOf: [[40], [50], [60], [70]], to: "d")
        var leaked: [[UInt8]] = []
        while let event = try cursor.next() { leaked.append(event.payload) }
        // b's own events 2 and 3 may or may not still be delivered; d's never may be.
        #expect(leaked.allSatisfy { [[2], [3]].contains($0) }, "b's cursor delivered \(leaked)")
    }
}
