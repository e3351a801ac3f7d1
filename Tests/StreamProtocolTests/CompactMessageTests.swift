import StreamProtocol
import Testing

/// `COMPACT` and `COMPACTED` are laid out byte for byte as schemas/protocol.md shows them.
@Suite struct CompactMessageTests {
    @Test func compactIsAnEmptyFrameOfType0x39() throws {
        #expect(try ClientMessage.compact.encoded(requestID: 7) == [0, 0, 0, 6, 0x39, 0, 0, 0, 0, 7])
    }

    @Test func compactedCarriesTheSizesTheRewriteFlagAndTheDurationAsDocumented() throws {
        let message = ServerMessage.compacted(.init(bytesBefore: 18_874_368, bytesAfter: 1_835_008, rewrote: false, milliseconds: 96))
        let bytes = try message.encoded(requestID: 7)
        #expect(bytes == [
            0, 0, 0, 0x1f, 0xb7, 0, 0, 0, 0, 7,
            0, 0, 0, 0, 0x01, 0x20, 0, 0,
            0, 0, 0, 0, 0, 0x1c, 0, 0,
            0,
            0, 0, 0, 0, 0, 0, 0, 0x60,
        ])
        guard case let .compacted(figures) = message else { return }
        #expect(figures.reclaimedBytes == 18_874_368 - 1_835_008)
        #expect(ServerMessage.Compaction(bytesBefore: 1, bytesAfter: 5, rewrote: true, milliseconds: 0).reclaimedBytes == 0)
    }
}
