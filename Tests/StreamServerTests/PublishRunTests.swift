import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// How decoded requests become steps: which `PUBLISH` requests share a run (and so a commit).
struct PublishRunTests {
    private static let maximumEventBytes = 1000

    private func steps(_ messages: [ClientMessage]) -> [ConnectionSession.Step] {
        var steps: [ConnectionSession.Step] = []
        for (index, message) in messages.enumerated() {
            ConnectionSession.append(request: message, requestID: UInt32(index + 1), maximumEventBytes: Self.maximumEventBytes, to: &steps)
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
        let steps = steps([publish("a", 1), publish("a", 2), publish("a", 3)])
        #expect(shape(steps) == ["run(a: 1,2,3)"])
        guard case let .publish(run) = steps[0] else { throw TestFailure("not a run") }
        #expect(run.payloads == [[1], [2], [3]])
        #expect(run.isPipelinable)
    }

    @Test func anotherStreamAConditionAnOversizeEventOrAnotherRequestEndsTheRun() {
        let steps = steps([
            publish("a", 1), publish("b", 2), publish("b", 3, expected: 2), publish("b", 4),
            publish("b", 5, size: Self.maximumEventBytes + 1), publish("b", 6), .ping(nonce: 1), publish("b", 8),
        ])
        #expect(shape(steps) == ["run(a: 1)", "run(b: 2)", "one(3)", "run(b: 4)", "one(5)", "run(b: 6)", "one(7)", "run(b: 8)"])
    }

    @Test func aRunStopsAtItsMaximumAndTheNextPublishStartsAnother() {
        let steps = steps((0...PublishRun.maximumCount).map { publish("a", UInt8(truncatingIfNeeded: $0)) })
        guard case let .publish(first) = steps.first, case let .publish(second) = steps.last else {
            Issue.record("expected two runs, got \(shape(steps))")
            return
        }
        #expect(steps.count == 2)
        #expect(first.count == PublishRun.maximumCount)
        #expect(second.requestIDs == [UInt32(PublishRun.maximumCount + 1)])
    }

    @Test func messageIDsKeepTheirPlacesAndMakeTheRunWaitForDeduplication() throws {
        let steps = steps([publish("a", 1), publish("a", 2, id: "x"), publish("a", 3), publish("a", 4, id: "y")])
        #expect(shape(steps) == ["run(a: 1,2,3,4)"])
        guard case let .publish(run) = steps[0] else { throw TestFailure("not a run") }
        #expect(!run.isPipelinable)
        #expect(run.submissions.map(\.messageID) == [nil, "x", nil, "y"])
        #expect(run.submissions.map(\.payload) == [[1], [2], [3], [4]])
    }
}
