import StreamdTestSupport
import Testing
@testable import StreamProtocol

@Suite struct FrameDecoderTests {
    private var stream: (bytes: [UInt8], messages: [ClientMessage]) {
        let messages = ProtocolSamples.clientMessages
        let bytes = messages.enumerated().flatMap { index, message in try! message.encoded(requestID: UInt32(index)) }
        return (bytes, messages)
    }

    private func decodeAll(_ chunks: [ArraySlice<UInt8>]) throws -> [ClientMessage] {
        var decoder = FrameDecoder()
        var decoded: [ClientMessage] = []
        for chunk in chunks {
            decoder.append(chunk)
            while let frame = try decoder.next() {
                #expect(frame.requestID == UInt32(decoded.count))
                decoded.append(try ClientMessage(frame))
            }
        }
        #expect(decoder.bufferedByteCount == 0)
        return decoded
    }

    @Test func framesDecodeFromOneBuffer() throws {
        let (bytes, messages) = stream
        #expect(try decodeAll([bytes[...]]) == messages)
    }

    @Test func framesDecodeOneByteAtATime() throws {
        let (bytes, messages) = stream
        #expect(try decodeAll(bytes.indices.map { bytes[$0...$0] }) == messages)
    }

    @Test(arguments: 1...50)
    func framesDecodeFromRandomSplits(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, messages) = stream
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int(random.next() % 40) + 1)
            chunks.append(bytes[start..<end])
            start = end
        }
        #expect(try decodeAll(chunks) == messages)
    }

    @Test(arguments: 1...10)
    func bodiesReadWhereTheDecoderKeepsThemGiveTheSameMessages(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let (bytes, messages) = stream
        var decoder = FrameDecoder()
        var decoded: [ClientMessage] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int(random.next() % 40) + 1)
            decoder.append(bytes[start..<end])
            start = end
            while let (type, requestID, body) = try decoder.nextBody() {
                #expect(requestID == UInt32(decoded.count))
                decoded.append(try ClientMessage(type: type, body: body))
            }
        }
        #expect(decoded == messages)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func anOversizeLengthIsRefusedBeforeItsBodyArrives() throws {
        var decoder = FrameDecoder(maximumLength: 1024)
        decoder.append([0, 0, 4, 1])
        #expect(throws: ProtocolError.frameTooLarge(length: 1025, maximum: 1024)) { try decoder.next() }
        var hostile = FrameDecoder()
        hostile.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ProtocolError.frameTooLarge(length: 0xFFFF_FFFF, maximum: Frame.defaultMaximumLength)) {
            try hostile.next()
        }
    }

    @Test func aLengthShorterThanTheHeaderIsMalformed() {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 5, 1, 0, 0, 0, 0])
        #expect(throws: ProtocolError.self) { try decoder.next() }
    }

    @Test func nonZeroFlagsAreMalformedInVersionOne() {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 6, 0x33, 0x80, 0, 0, 0, 1])
        #expect(throws: ProtocolError.malformed("flags are 0x80, but must be 0 in version 1")) { try decoder.next() }
    }

    @Test func anIncompleteFrameWaitsForMoreBytes() throws {
        var decoder = FrameDecoder()
        let bytes = try ClientMessage.ping(nonce: 5).encoded(requestID: 1)
        decoder.append(bytes.dropLast())
        #expect(try decoder.next() == nil)
        decoder.append(bytes.suffix(1))
        #expect(try decoder.next().map { try ClientMessage($0) } == .ping(nonce: 5))
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<5_000 {
            var decoder = FrameDecoder(maximumLength: 4096)
            let count = Int(random.next() % 64)
            decoder.append((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            while let frame = try? decoder.next() {
                _ = try? ClientMessage(frame)
                _ = try? ServerMessage(frame)
            }
        }
    }
}

