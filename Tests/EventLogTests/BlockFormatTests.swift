import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct BlockFormatTests {
    /// Frames `events`, stores them with `codec` as the writer would, and decodes them back.
    private func roundTrip(_ events: [LogEvent], compress: Bool) throws -> (BlockHeader, [UInt8], [LogEvent]) {
        var framer = BlockFramer(capacity: 1024)
        framer.reset(firstTimestamp: events[0].timestamp)
        for event in events { event.payload.withUnsafeBytes { framer.append(kind: event.kind, timestamp: event.timestamp, payload: $0) } }
        let deflater = try Deflater(level: 1)
        let raw = framer.bytes
        let stored: [UInt8] = compress ? raw.withUnsafeBytes { bytes in deflater.compress(bytes) { $0.map(Array.init) } } ?? raw : raw
        let header = BlockHeader(
            firstSequence: events[0].sequence, lastSequence: events.last!.sequence, firstTimestamp: events[0].timestamp,
            lastTimestamp: events.last!.timestamp, count: events.count, codec: stored == raw ? .raw : .deflate,
            rawSize: raw.count, crc: stored.withUnsafeBytes { crc32Checksum($0) })
        var decoded: [LogEvent] = []
        _ = try stored.withUnsafeBytes { bytes in
            try BlockDecoder().decode(header, stored: bytes, from: 0) { decoded.append($0.copy()); return true }
        }
        return (header, stored, decoded)
    }

    @Test func eventsOfEveryKindSizeAndTimestampRoundTrip() throws {
        let sizes = [0, 1, 127, 128, 129, 16_383, 16_384, 70_000]
        var events = sizes.enumerated().map { index, size in
            LogEvent(sequence: UInt64(40 + index), timestamp: 1_700_000_000_000_000 + Int64(index * index * 1_000),
                     payload: incompressibleBytes(size, seed: UInt64(index + 1)))
        }
        events.append(LogEvent(sequence: 48, timestamp: 1_700_000_000_100_000, kind: .failed, payload: Array("boom".utf8)))
        for compress in [false, true] {
            let (_, _, decoded) = try roundTrip(events, compress: compress)
            #expect(decoded == events)
        }
    }

    @Test func compressibleBlocksAreDeflatedAndIncompressibleOnesStayRaw() throws {
        let json = (0..<64).map { LogEvent(sequence: UInt64($0 + 1), timestamp: 5, payload: samplePayload($0)) }
        let (packed, packedBytes, _) = try roundTrip(json, compress: true)
        #expect(packed.codec == .deflate)
        #expect(packedBytes.count * 3 < packed.rawSize)

        let noise = [LogEvent(sequence: 1, timestamp: 5, payload: incompressibleBytes(500))]
        let (raw, rawBytes, decoded) = try roundTrip(noise, compress: true)
        #expect(raw.codec == .raw)
        #expect(rawBytes.count == raw.rawSize)
        #expect(decoded == noise)
    }

    @Test func aDeflaterIsReusedAcrossBlocks() throws {
        let deflater = try Deflater(level: 1)
        let inflater = try Inflater()
        for round in 0..<5 {
            let input = (0..<50).flatMap { samplePayload($0 + round * 50) }
            let packed = try #require(input.withUnsafeBytes { bytes in deflater.compress(bytes) { $0.map(Array.init) } })
            var output = [UInt8](repeating: 0, count: input.count)
            let problem = packed.withUnsafeBytes { source in output.withUnsafeMutableBytes { inflater.decompress(source, into: $0) } }
            #expect(problem == nil)
            #expect(output == input)
        }
    }

    @Test func damagedFramingIsReportedWithTheBlockRange() throws {
        let events = (0..<3).map { LogEvent(sequence: UInt64(10 + $0), timestamp: 9, payload: samplePayload($0)) }
        let (header, stored, _) = try roundTrip(events, compress: false)
        var cut = Array(stored.dropLast(5))
        var shortened = header
        shortened.rawSize = cut.count
        shortened.crc = cut.withUnsafeBytes { crc32Checksum($0) }
        let error = expectLogError(.corruptBlock) {
            _ = try cut.withUnsafeBytes { try BlockDecoder().decode(shortened, stored: $0, from: 0) { _ in true } }
        }
        #expect(error?.sequences == 10...12)

        cut = stored
        cut[0] = 9  // an unknown event kind
        shortened = header
        shortened.crc = cut.withUnsafeBytes { crc32Checksum($0) }
        expectLogError(.corruptBlock) {
            _ = try cut.withUnsafeBytes { try BlockDecoder().decode(shortened, stored: $0, from: 0) { _ in true } }
        }
    }

    @Test func decodingFromAMidBlockSequenceSkipsTheEarlierEvents() throws {
        let events = (0..<10).map { LogEvent(sequence: UInt64(1 + $0), timestamp: 3, payload: samplePayload($0)) }
        let (header, stored, _) = try roundTrip(events, compress: true)
        var seen: [UInt64] = []
        _ = try stored.withUnsafeBytes { try BlockDecoder().decode(header, stored: $0, from: 7) { seen.append($0.sequence); return true } }
        #expect(seen == [7, 8, 9, 10])
    }
}
