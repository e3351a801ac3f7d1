import EventLog
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// Bad input, thousands of cases: each bad session gets an `ERROR` and closes, while a well-behaved
/// client on the same hub keeps publishing and receiving, and nothing acknowledged is lost.
@Suite(.serialized) struct FuzzTests {
    private static let maximumFrameLength = 4096

    private static let samples: [ClientMessage] = [
        .ping(nonce: 7),
        .publish(.init(stream: "fuzz", expectedLastSequence: 3, messageID: "id", payload: [1, 2, 3])),
        .publishBatch(.init(stream: "fuzz", entries: [.init(messageID: "a", payload: [1]), .init(payload: [])])),
        .subscribe(.init(subscriptionID: 3, stream: "fuzz", start: .last(2), credit: 5)),
        .credit(subscriptionID: 3, credit: 1),
        .unsubscribe(subscriptionID: 3),
        .createStream(name: "fuzz", policy: .init(capacity: .last(5), replay: .from(sequence: 2))),
        .getStreamInfo(name: "fuzz"),
        .truncateStream(name: "fuzz", truncation: .keepLast(1), dryRun: true),
    ]

    /// One bad input of the given kind.
    private func badInput(kind: Int, _ random: inout SeededGenerator) throws -> [UInt8] {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        switch kind {
        case 0:  // noise
            return bytes(Int.random(in: 1...64, using: &random))
        case 1:  // a well-framed random body of any type
            let body = bytes(Int.random(in: 0...40, using: &random))
            return Frame(type: UInt8.random(in: 0...255, using: &random), requestID: 1, body: body).encoded
        case 2:  // a valid request with one byte changed
            var frame = try Self.samples.randomElement(using: &random)!.encoded(requestID: 2)
            frame[Int.random(in: 0..<frame.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            return frame
        case 3:  // a valid request cut short, its length saying so
            let whole = try Self.samples.randomElement(using: &random)!.encoded(requestID: 3)
            var body = Array(whole[10...])
            guard !body.isEmpty else { return Frame(type: 0x02, requestID: 3, body: [1]).encoded }
            body.removeLast(Int.random(in: 1...body.count, using: &random))
            return Frame(type: whole[4], requestID: 3, body: body).encoded
        case 4:  // a length over the maximum
            let length = UInt32.random(in: UInt32(Self.maximumFrameLength + 1)...UInt32.max, using: &random)
            return withUnsafeBytes(of: length.bigEndian, Array.init) + bytes(Int.random(in: 0...8, using: &random))
        case 5:  // an unknown type
            let type = UnknownMessageType.random(using: &random)
            return Frame(type: type, requestID: 5, body: bytes(Int.random(in: 0...8, using: &random))).encoded
        default:  // invalid stream names (answered, not fatal)
            let name = ["", ".dot", "sp ace", "quote'--", String(repeating: "n", count: 201), "ünï"].randomElement(using: &random)!
            return try ClientMessage.publish(.init(stream: name, payload: [1])).encoded(requestID: 6)
        }
    }

    @Test func thousandsOfBadInputsEachCloseTheirSessionWithAnErrorWhileAGoodClientKeepsWorking() throws {
        let (hub, storage) = try makeHub { $0.maximumFrameLength = Self.maximumFrameLength }
        let good = try TestClient.connected(to: hub)
        try good.publish(payload(1), to: "good")
        _ = try good.request(.subscribe(.init(subscriptionID: 1, stream: "good", start: .all, credit: .max)))
        var acknowledged: [UInt64] = [1]
        var random = SeededGenerator(seed: 2026)
        var closedByKind = [Int: Int]()
        let hello = try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "fuzz").encoded(requestID: 1)
        // Zero bytes complete any frame left pending, then a zero length field is always malformed.
        let closer = [UInt8](repeating: 0, count: Self.maximumFrameLength + 14)
        for round in 0..<3_000 {
            let kind = round % 7
            let bad = TestClient(hub: hub)
            if round % 5 != 0 { bad.session.receive(hello) }
            var input = try badInput(kind: kind, &random)
            if !bad.session.isClosed, Bool.random(using: &random) { input += try badInput(kind: Int.random(in: 0...6, using: &random), &random) }
            var offset = 0
            while offset < input.count {
                let length = Int.random(in: 1...32, using: &random)
                bad.session.receive(input[offset..<min(input.count, offset + length)])
                offset += length
            }
            if bad.session.isClosed { closedByKind[kind, default: 0] += 1 }
            bad.session.receive(closer)
            let frames = bad.collector.received
            #expect(bad.session.isClosed, "round \(round)")
            #expect(bad.collector.decodingProblems.isEmpty, "round \(round)")
            guard let last = frames.last?.message.errorCode else {
                Issue.record("round \(round): the session closed without an ERROR")
                continue
            }
            #expect(last.closesConnection, "round \(round): closed after \(last)")
            if kind == 6, round % 5 != 0 {
                #expect(frames.contains { $0.message.errorCode == .invalidStreamName }, "round \(round)")
            }
            bad.session.close()
            if round % 10 == 0 {
                acknowledged.append(try good.publish(payload(acknowledged.count + 1), to: "good"))
            }
        }
        // Each kind of bad input, alone, closes a session (the closer only finishes partial frames).
        for kind in 0...5 { #expect(closedByKind[kind, default: 0] > 0, "kind \(kind)") }
        #expect(acknowledged == (1...acknowledged.count).map { UInt64($0) })
        let events = try good.waitForEvents(of: 1, count: acknowledged.count)
        #expect(events.map(\.sequence) == acknowledged)
        #expect(try storage.log.streamInfo("good")?.lastSequence == UInt64(acknowledged.count))
        #expect(!good.session.isClosed)
        #expect(try good.request(.ping(nonce: 9)) == .pong(nonce: 9))
    }

    @Test func randomBytesWithoutHelloNeverGetPastTheHandshake() throws {
        let (hub, storage) = try makeHub { $0.maximumFrameLength = Self.maximumFrameLength }
        var random = SeededGenerator(seed: 99)
        for round in 0..<500 {
            let bad = TestClient(hub: hub)
            bad.session.receive(try badInput(kind: 1, &random) + [UInt8](repeating: 0, count: Self.maximumFrameLength + 14))
            let codes = bad.collector.received.map(\.message.errorCode)
            #expect(codes.count == 1 && codes[0].map(\.closesConnection) == true, "round \(round): \(codes)")
        }
        #expect(try storage.log.streams().isEmpty)
    }
}
