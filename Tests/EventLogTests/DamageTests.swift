import Foundation
import Testing
@testable import EventLog
import StreamdTestSupport

/// Damaged blocks and full disks: reported with the stream and sequences, never a crash, nothing partial.
@Suite struct DamageTests {
    @Test func aFlippedByteInABlockIsReportedByVerifyAndByTheReadThatHitsIt() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 10
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("orders")
        try log.createStream("other")
        try log.append(contentsOf: (0..<30).map(samplePayload), to: "orders")
        try log.append(contentsOf: (0..<5).map(samplePayload), to: "other")
        try rawSQL(dir.file(), """
            UPDATE blocks SET payload = CAST(substr(payload, 1, 5) || char((unicode(substr(payload, 6, 1)) + 1) % 128) || substr(payload, 7) AS BLOB)
            WHERE first_seq = 11 AND stream_id = (SELECT id FROM streams WHERE name = 'orders')
            """)

        let report = try log.verify()
        #expect(report.problems.count == 1, "\(report)")
        let problem = try #require(report.problems.first)
        #expect(problem.stream == "orders")
        #expect(problem.sequences == 11...20)
        #expect(problem.message.contains("CRC"))

        var delivered: [UInt64] = []
        let error = expectLogError(.corruptBlock) {
            try log.read("orders") { event in
                delivered.append(event.sequence)
                return true
            }
        }
        #expect(delivered == Array(1...10), "events before the damage are delivered")
        #expect(error?.stream == "orders")
        #expect(error?.sequences == 11...20)
        #expect(error?.message.contains("11...20") == true)

        #expect(try log.readAll("orders", from: .from(sequence: 21)).map(\.sequence) == Array(21...30))
        #expect(try log.readAll("other").count == 5)
        let cursor = try log.events(in: "orders", from: .from(sequence: 12))
        expectLogError(.corruptBlock) { _ = try cursor.next() }

        try log.truncate("orders", before: 21)
        #expect(try log.verify().isClean)
    }

    @Test func aDamagedCompressedStreamOrFramingIsReportedNotCrashed() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<50).map(samplePayload), to: "s")
        // Rewrite the payload with garbage and a matching CRC, so decompression itself must catch it.
        let garbage = incompressibleBytes(40)
        let hex = garbage.map { String(format: "%02x", $0) }.joined()
        let crc = garbage.withUnsafeBytes { crc32Checksum($0) }
        try rawSQL(dir.file(), "UPDATE blocks SET payload = x'\(hex)', crc32 = \(crc)")
        let report = try log.verify()
        #expect(report.problems.contains { $0.sequences == 1...50 && $0.message.contains("zlib") }, "\(report)")
        expectLogError(.corruptBlock) { _ = try log.readAll("s") }

        try rawSQL(dir.file(), "UPDATE blocks SET count = 7")
        #expect(try log.verify().problems.count >= 1)
    }

    /// A log whose stream "s" holds 20 events in four blocks of five.
    private func fourBlocks(in dir: TemporaryDirectory) throws -> EventLog {
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 5
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        try log.append(contentsOf: (0..<20).map(samplePayload), to: "s")
        return log
    }

    @Test func verifyFindsGapsAndCatalogDisagreements() throws {
        let dir = TemporaryDirectory()
        let log = try fourBlocks(in: dir)
        try rawSQL(dir.file(), "DELETE FROM blocks WHERE first_seq = 6")
        let report = try log.verify()
        #expect(report.problems.contains { $0.sequences == 6...10 && $0.message.contains("missing") }, "\(report)")
        #expect(report.problems.contains { $0.message.contains("stored bytes") }, "\(report)")
    }

    @Test func verifyFindsABlockStoredUnderAnotherKey() throws {
        let dir = TemporaryDirectory()
        let log = try fourBlocks(in: dir)
        #expect(try log.verify().isClean)
        // A block whose key says another sequence is not where reads look for it.
        try rawSQL(dir.file(), "UPDATE blocks SET block_key = block_key + 100 WHERE first_seq = 6")
        let report = try log.verify()
        #expect(report.problems.contains { $0.message.contains("1 blocks have a key that does not match") }, "\(report)")
    }

    @Test func aFullDiskFailsTheAppendCleanlyAndTheLogStaysUsable() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumPageCount = 40
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        try log.createStream("t")
        let (acknowledged, failure) = appendUntilRefused(to: "s", of: log, atMost: 1_000)
        let error = try #require(failure)
        #expect(error.code == .diskFull, "\(error)")
        #expect(error.stream == "s")
        #expect(error.message.contains("nothing of the failed write was stored"))
        #expect(acknowledged > 0)

        let info = try #require(try log.streamInfo("s"))
        #expect(info.lastSequence == acknowledged, "no partial event visible")
        #expect(try log.readAll("s").count == Int(acknowledged))
        #expect(try log.verify().isClean)

        // Freeing space makes the log usable again, and sequences go on without a gap.
        try log.truncate("s", keepingLast: 1)
        let next = try log.append([1, 2, 3], to: "s")
        #expect(next.sequence == acknowledged + 1)
        #expect(try log.append([4], to: "t").sequence == 1)
        #expect(try log.verify().isClean)
    }
}
