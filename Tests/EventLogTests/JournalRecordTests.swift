import Testing
@testable import EventLog

@Suite struct JournalRecordTests {
    private let record = JournalRecord(
        kind: .value, streamID: 7, streamCreated: 1_700_000_000_000_001, firstSequence: 41, timestamp: 1_700_000_000_123_456,
        payloads: [Array("first".utf8), [], Array(repeating: 0xAB, count: 300)])

    @Test func aRecordReadsBackAsItWasWritten() throws {
        var bytes: [UInt8] = []
        record.encode(generation: 3, into: &bytes)
        let decoded = try #require(bytes.withUnsafeBytes { JournalRecord.decode($0, generation: 3) })
        #expect(decoded.record == record)
        #expect(decoded.size == bytes.count)
        #expect(decoded.record.lastSequence == 43)
    }

    @Test func aRecordWithMessageIdsReadsBackWithThemAndTornItIsNotRead() throws {
        var withIDs = record
        withIDs.messageIDs = ["order-1", nil, "ünïcode-3"]
        var bytes: [UInt8] = []
        withIDs.encode(generation: 2, into: &bytes)
        let decoded = try #require(bytes.withUnsafeBytes { JournalRecord.decode($0, generation: 2) })
        #expect(decoded.record == withIDs && decoded.size == bytes.count)
        #expect(decoded.record.messageIDs == ["order-1", nil, "ünïcode-3"])
        for kept in [bytes.count - 1, bytes.count - 11, bytes.count - 20] {
            #expect(Array(bytes.prefix(kept)).withUnsafeBytes { JournalRecord.decode($0, generation: 2) } == nil)
        }
    }

    @Test func recordsWrittenOneAfterAnotherReadBackInOrder() throws {
        var bytes: [UInt8] = []
        let second = JournalRecord(kind: .completed, streamID: 8, streamCreated: 2, firstSequence: 1, timestamp: 5, payloads: [[]])
        record.encode(generation: 1, into: &bytes)
        second.encode(generation: 1, into: &bytes)
        let first = try #require(bytes.withUnsafeBytes { JournalRecord.decode($0, generation: 1) })
        let next = try #require(bytes.withUnsafeBytes { JournalRecord.decode(UnsafeRawBufferPointer(rebasing: $0[first.size...]), generation: 1) })
        #expect(first.record == record && next.record == second)
    }

    @Test func aRecordOfAnotherGenerationIsNotRead() {
        var bytes: [UInt8] = []
        record.encode(generation: 3, into: &bytes)
        #expect(bytes.withUnsafeBytes { JournalRecord.decode($0, generation: 4) } == nil)
    }

    @Test(arguments: [1, 8, 47, 60, 120])
    func aTornRecordIsNotRead(keeping bytes: Int) {
        var whole: [UInt8] = []
        record.encode(generation: 1, into: &whole)
        #expect(Array(whole.prefix(bytes)).withUnsafeBytes { JournalRecord.decode($0, generation: 1) } == nil)
    }

    @Test func aFlippedByteIsNotRead() {
        var bytes: [UInt8] = []
        record.encode(generation: 1, into: &bytes)
        bytes[60] ^= 0x01
        #expect(bytes.withUnsafeBytes { JournalRecord.decode($0, generation: 1) } == nil)
    }
}
