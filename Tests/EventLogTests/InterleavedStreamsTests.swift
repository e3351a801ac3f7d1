import Testing
import StreamdTestSupport
@testable import EventLog

@Suite struct InterleavedStreamsTests {
    @Test func fiftyInterleavedStreamsEachReadBackExactlyTheirOwnEvents() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 4
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        let names = (0..<50).map { "stream-\($0)" }
        for name in names { try log.createStream(name) }
        var random = SeededGenerator(seed: 50)
        var written: [String: [[UInt8]]] = [:]
        for round in 0..<400 {
            let name = try #require(names.randomElement(using: &random))
            // Each payload names its stream, so an event read from a neighbour's blocks shows.
            let count = Int.random(in: 1...6, using: &random)
            let payloads = (0..<count).map { Array("\(name)/\(round)/\($0)".utf8) }
            try log.append(contentsOf: payloads, to: name)
            written[name, default: []] += payloads
        }

        var perStream: [StorageFigures] = []
        for name in names {
            let events = try log.readAll(name)
            #expect(events.map(\.payload) == written[name, default: []], "\(name)")
            expectContiguous(events, from: 1)
            let middle = UInt64(events.count / 2 + 1)
            #expect(try log.readAll(name, from: .from(sequence: middle)).map(\.payload) == Array(written[name, default: []].dropFirst(Int(middle) - 1)), "\(name) from \(middle)")
            #expect(try log.readAll(name, from: .from(sequence: UInt64(events.count) + 1)).isEmpty, "\(name) past its end")
            let figures = try log.storageFigures(of: name)
            #expect(figures.storedBytes == UInt64(try #require(try log.streamInfo(name)).storedBytes), "\(name)")
            perStream.append(figures)
        }
        let all = try log.storageFigures()
        #expect(all.blocks == perStream.map(\.blocks).reduce(0, +))
        #expect(all.storedBytes == perStream.map(\.storedBytes).reduce(0, +))
        #expect(all.rawBytes == perStream.map(\.rawBytes).reduce(0, +))
        #expect(all.blocks > 400, "every append wrote at least one block")
        #expect(try log.verify().isClean)
    }
}
