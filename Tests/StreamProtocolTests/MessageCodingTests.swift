import Testing
@testable import StreamProtocol

@Suite struct MessageCodingTests {
    @Test func everyClientMessageSurvivesEncodingAndDecoding() throws {
        for (index, message) in ProtocolSamples.clientMessages.enumerated() {
            var decoder = FrameDecoder()
            decoder.append(try message.encoded(requestID: UInt32(index)))
            let frame = try #require(try decoder.next())
            #expect(frame.requestID == UInt32(index))
            #expect(try ClientMessage(frame) == message)
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func everyServerMessageSurvivesEncodingAndDecoding() throws {
        for (index, message) in ProtocolSamples.serverMessages.enumerated() {
            var decoder = FrameDecoder()
            decoder.append(try message.encoded(requestID: UInt32(index)))
            let frame = try #require(try decoder.next())
            #expect(try ServerMessage(frame) == message)
        }
    }

    @Test func framesAppendedToOneWriterAreTheFramesEncodedOneByOne() throws {
        var writer = WireWriter()
        var expected: [UInt8] = []
        for (index, message) in ProtocolSamples.serverMessages.enumerated() {
            try message.encode(requestID: UInt32(index), into: &writer)
            expected += try message.encoded(requestID: UInt32(index))
        }
        for (index, message) in ProtocolSamples.clientMessages.enumerated() {
            try message.encode(requestID: UInt32(index), into: &writer)
            expected += try message.encoded(requestID: UInt32(index))
        }
        #expect(writer.bytes == expected)
    }

    @Test func aMessageThatCannotBeEncodedLeavesTheWriterAsItWas() throws {
        var writer = WireWriter()
        try ServerMessage.pong(nonce: 7).encode(requestID: 1, into: &writer)
        let before = writer.bytes
        let tooLong = ClientMessage.publish(.init(stream: String(repeating: "s", count: 70_000), payload: [1]))
        #expect(throws: ProtocolError.self) { try tooLong.encode(requestID: 2, into: &writer) }
        #expect(writer.bytes == before)
    }

    @Test func aPublishIsLaidOutAsTheDocumentSays() throws {
        let bytes = try ClientMessage.publish(.init(stream: "ab", expectedLastSequence: 258, payload: [0xFF]))
            .encoded(requestID: 0x0102_0304)
        #expect(bytes == [
            0, 0, 0, 25, // length: 6 header + 19 body
            0x10, 0, 1, 2, 3, 4, // type, flags, request id
            0, 2, 0x61, 0x62, // stream "ab"
            1, 0, 0, 0, 0, 0, 0, 1, 2, // expected_last_sequence present: 258
            0, // message_id absent
            0, 0, 0, 1, 0xFF, // payload
        ])
    }

    @Test func eventsAreLaidOutAsTheDocumentSays() throws {
        let bytes = try ServerMessage.events(subscriptionID: 9, events: [
            WireEvent(sequence: 1, timestamp: -1, kind: .failed, payload: [0x41]),
        ]).encoded(requestID: 7)
        #expect(bytes == [
            0, 0, 0, 36, 0xA1, 0, 0, 0, 0, 7,
            0, 0, 0, 9, 0, 0, 0, 1, // subscription id, count
            0, 0, 0, 0, 0, 0, 0, 1, // sequence
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, // timestamp -1
            2, 0, 0, 0, 1, 0x41, // kind failed, payload "A"
        ])
    }

    @Test func helloStartsWithTheMagicBytes() throws {
        let bytes = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "").encoded(requestID: 1)
        #expect(Array(bytes[10..<14]) == Array("STRD".utf8))
        var wrong = bytes
        wrong[10] = UInt8(ascii: "X")
        var decoder = FrameDecoder()
        decoder.append(wrong)
        let frame = try #require(try decoder.next())
        #expect(throws: ProtocolError.self) { try ClientMessage(frame) }
    }

    @Test func everyTruncatedBodyIsMalformedNeverACrash() throws {
        for message in ProtocolSamples.clientMessages {
            let frame = try frame(of: message.encoded(requestID: 1))
            for length in 0..<frame.body.count {
                let short = Frame(type: frame.type, requestID: 1, body: Array(frame.body.prefix(length)))
                #expect(throws: ProtocolError.self) { try ClientMessage(short) }
            }
        }
        for message in ProtocolSamples.serverMessages {
            let frame = try frame(of: message.encoded(requestID: 1))
            for length in 0..<frame.body.count {
                let short = Frame(type: frame.type, requestID: 1, body: Array(frame.body.prefix(length)))
                #expect(throws: ProtocolError.self) { try ServerMessage(short) }
            }
        }
    }

    @Test func bytesLeftAfterABodyAreMalformed() throws {
        var frame = try frame(of: ClientMessage.ping(nonce: 1).encoded(requestID: 1))
        frame.body.append(0)
        #expect(throws: ProtocolError.malformed("1 unexpected bytes after the body of message type 0x2")) {
            try ClientMessage(frame)
        }
    }

    @Test func invalidFieldValuesAreMalformedAndNamed() throws {
        let badBool = Frame(type: 0x34, requestID: 1, body: [0, 1, 0x61, 1, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        #expect(throws: ProtocolError.malformed("dry_run is 2, but a bool is 0 or 1")) { try ClientMessage(badBool) }
        let badPresence = Frame(type: 0x10, requestID: 1, body: [0, 1, 0x61, 7])
        #expect(throws: ProtocolError.malformed("expected_last_sequence has presence byte 7, but it must be 0 or 1")) {
            try ClientMessage(badPresence)
        }
        let badUTF8 = Frame(type: 0x32, requestID: 1, body: [0, 2, 0xC3, 0x28])
        #expect(throws: ProtocolError.malformed("stream is not valid UTF-8")) { try ClientMessage(badUTF8) }
        let badStart = Frame(type: 0x20, requestID: 1, body: [0, 0, 0, 1, 0, 1, 0x61, 9, 0, 0, 0, 1])
        #expect(throws: ProtocolError.malformed("start.kind is 9, but must be 0...5")) { try ClientMessage(badStart) }
    }

    @Test func unknownMessageTypesAreNamed() {
        #expect(throws: ProtocolError.unknownMessageType(0x7F)) { try ClientMessage(Frame(type: 0x7F, requestID: 1, body: [])) }
        #expect(throws: ProtocolError.unknownMessageType(0x10)) { try ServerMessage(Frame(type: 0x10, requestID: 1, body: [])) }
    }

    @Test func aStringLongerThanItsFieldIsRefusedWhenEncoding() {
        let name = String(repeating: "n", count: 70_000)
        #expect(throws: ProtocolError.valueTooLong(field: "stream", length: 70_000, maximum: 65_535)) {
            try ClientMessage.getStreamInfo(name: name).encoded(requestID: 1)
        }
    }

    @Test func anOverlongErrorMessageIsCutToFitRatherThanFailingTheReply() throws {
        let message = String(repeating: "é", count: 40_000)
        let frame = try frame(of: ServerMessage.error(code: .internal, message: message).encoded(requestID: 1))
        guard case let .error(code, decoded) = try ServerMessage(frame) else { Issue.record("not an error"); return }
        #expect(code == .internal)
        #expect(decoded.utf8.count <= 65_000 && message.hasPrefix(decoded.dropLast()))
    }

    @Test func errorCodesBelowTenCloseTheConnection() {
        #expect(ErrorCode.malformedFrame.closesConnection)
        #expect(ErrorCode.handshakeRequired.closesConnection)
        #expect(!ErrorCode.streamNotFound.closesConnection)
        #expect(ErrorCode.subscriptionIDInUse.description == "subscription_id_in_use")
    }

    private func frame(of bytes: [UInt8]) throws -> Frame {
        var decoder = FrameDecoder()
        decoder.append(bytes)
        return try #require(try decoder.next())
    }
}
