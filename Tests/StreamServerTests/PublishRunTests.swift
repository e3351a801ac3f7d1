import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// How received bytes become steps (`StepDecoder`): which `PUBLISH` requests share a run, and so a commit.
struct PublishRunTests {
    private static let maximumEventBytes = 1000

    /// A decoder past the handshake.
    private func openDecoder() throws -> StepDecoder {
        var decoder = StepDecoder(
            frames: FrameDecoder(),
            connection: ConnectionState(supportedVersions: 1...1, maximumFrameLength: 1 << 20, maximumSubscriptions: 10, serverName: "test"),
            maximumEventBytes: Self.maximumEventBytes)
        let welcome = decoder.steps(from: try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "t").encoded(requestID: 0))
        #expect(welcome.count == 1)
        return decoder
    }

    /// The steps for `messages` (request ids 1, 2, …) sent after a `HELLO`, fed in chunks of `chunk` bytes.
    private func steps(_ messages: [ClientMessage], chunk: Int = .max) throws -> [ConnectionSession.Step] {
        var decoder = try openDecoder()
        let bytes = try messages.enumerated().flatMap { try $1.encoded(requestID: UInt32($0 + 1)) }
        var steps: [ConnectionSession.Step] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(chunk, bytes.count))
            steps += decoder.steps(from: bytes[start..<end])
            start = end
        }
        return steps
    }

    private func publish(_ stream: String, _ byte: UInt8, expected: UInt64? = nil, id: String? = nil, size: Int = 1) -> ClientMessage {
        .publish(.init(stream: stream, expectedLastSequence: expected, messageID: id, payload: [UInt8](repeating: byte, count: size)))
    }

    /// Each step as text: `run(stream: ids)` or `one(id)`.
    private func shape(_ steps: [ConnectionSession.Step]) -> [String] {
        steps.map { step in
            switch step {
            case let .publish(run): "run(\(run.stream): \(run.requestIDs.map(String.init).joined(separator: ",")))"
            case let .handle(_, requestID): "one(\(requestID))"
            case let .send(_, requestID), let .closeThenSend(_, requestID): "send(\(requestID))"
            }
        }
    }

    @Test func consecutivePublishesToOneStreamFormOneRunWithTheirPayloadsInOrder() throws {
        let steps = try steps([publish("a", 1), publish("a", 2), publish("a", 3)])
        #expect(shape(steps) == ["run(a: 1,2,3)"])
        guard case let .publish(run) = steps[0] else { throw TestFailure("not a run") }
        #expect(run.payloads == [[1], [2], [3]])
        #expect(run.isPipelinable)
    }

    @Test func anotherStreamAConditionAnOversizeEventOrAnotherRequestEndsTheRun() throws {
        let steps = try steps([
            publish("a", 1), publish("b", 2), publish("b", 3, expected: 2), publish("b", 4),
            publish("b", 5, size: Self.maximumEventBytes + 1), publish("b", 6), .ping(nonce: 1), publish("b", 8),
        ])
        #expect(shape(steps) == ["run(a: 1)", "run(b: 2)", "one(3)", "run(b: 4)", "one(5)", "run(b: 6)", "one(7)", "run(b: 8)"])
    }

    @Test func aRunStopsAtItsMaximumAndTheNextPublishStartsAnother() throws {
        let steps = try steps((0...PublishRun.maximumCount).map { publish("a", UInt8(truncatingIfNeeded: $0)) })
        guard case let .publish(first) = steps.first, case let .publish(second) = steps.last else {
            Issue.record("expected two runs, got \(shape(steps))")
            return
        }
        #expect(steps.count == 2)
        #expect(first.count == PublishRun.maximumCount)
        #expect(second.requestIDs == [UInt32(PublishRun.maximumCount + 1)])
    }

    @Test func runsEndWhereTheBytesEndAndTheNextBytesStartANewOne() throws {
        let messages = (1...6).map { publish("a", UInt8($0)) }
        let frameLength = try messages[0].encoded(requestID: 1).count
        #expect(shape(try steps(messages, chunk: 2 * frameLength)) == ["run(a: 1,2)", "run(a: 3,4)", "run(a: 5,6)"])
    }

    @Test func aPublishWithAStreamNameThatIsNotUTF8EndsTheRunAndClosesTheConnection() throws {
        var bad = try publish("ab", 2).encoded(requestID: 2)
        bad[4 + Frame.headerLength + 2] = 0xFF  // the name's first byte, after its 2-byte length
        var decoder = try openDecoder()
        let steps = decoder.steps(from: try publish("ab", 1).encoded(requestID: 1) + bad + publish("ab", 3).encoded(requestID: 3))
        #expect(shape(steps) == ["run(ab: 1)", "send(2)"])
        #expect(decoder.isClosed)
    }

    @Test func messageIDsKeepTheirPlacesAndMakeTheRunWaitForDeduplication() throws {
        let steps = try steps([publish("a", 1), publish("a", 2, id: "x"), publish("a", 3), publish("a", 4, id: "y")])
        #expect(shape(steps) == ["run(a: 1,2,3,4)"])
        guard case let .publish(run) = steps[0] else { throw TestFailure("not a run") }
        #expect(!run.isPipelinable)
        #expect(run.submissions.map(\.messageID) == [nil, "x", nil, "y"])
        #expect(run.submissions.map(\.payload) == [[1], [2], [3], [4]])
    }
}
