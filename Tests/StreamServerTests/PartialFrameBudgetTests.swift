import StreamProtocol
import Testing

@testable import StreamServer

/// The bytes connections buffer of unfinished frames come from one shared budget (`StepDecoder`
/// with a `ByteBudget`), and a decoder lets go of a large buffer once its frames are done.
@Suite struct PartialFrameBudgetTests {
    private func openDecoder(budget: ByteBudget) throws -> StepDecoder {
        var decoder = StepDecoder(
            frames: FrameDecoder(maximumLength: 16 << 20),
            connection: ConnectionState(supportedVersions: 1...1, maximumFrameLength: 16 << 20, maximumSubscriptions: 10, serverName: "test"),
            maximumEventBytes: 16 << 20, budget: budget)
        _ = decoder.steps(from: try ClientMessage.hello(minVersion: 1, maxVersion: 1, clientName: "t").encoded(requestID: 0))
        return decoder
    }

    /// The header of a `PUBLISH` frame of `length` bytes after the length field.
    private func header(length: Int) -> [UInt8] {
        [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), PublishBody.messageType, 0, 0, 0, 0, 1]
    }

    @Test func unfinishedFramesOfManyConnectionsStayWithinTheBudgetAndTheOneBeyondIsRefused() throws {
        let budget = ByteBudget(limit: 8 << 20)
        var decoders = try (0..<6).map { _ in try openDecoder(budget: budget) }
        var refusals: [String] = []
        for index in decoders.indices {
            var steps = decoders[index].steps(from: header(length: 16 << 20))
            for _ in 0..<32 { steps += decoders[index].steps(from: [UInt8](repeating: 7, count: 64 * 1024)) }
            #expect(budget.usedBytes <= budget.limit)
            for case let .closeThenSend(.error(code, message), _) in steps where code == .limitExceeded { refusals.append(message) }
        }
        // Each holds about 2 to 4 MiB of its frame (less the free 64 KiB): some fit in 8 MiB, not all.
        #expect(refusals.count >= 2 && refusals.count < 6)
        #expect(refusals.allSatisfy { $0.contains("past the server's limit of 8388608 bytes") })
        #expect(decoders.filter(\.isClosed).count == refusals.count)
        for index in decoders.indices { decoders[index].close() }
        #expect(budget.usedBytes == 0)
    }

    @Test func aFinishedLargeFrameGivesItsBytesBack() throws {
        let budget = ByteBudget(limit: 64 << 20)
        var decoder = try openDecoder(budget: budget)
        let publish = try ClientMessage.publish(.init(stream: "s", payload: [UInt8](repeating: 1, count: 4 << 20))).encoded(requestID: 1)
        var start = 0
        var sawHeld = false
        while start < publish.count {
            let end = min(publish.count, start + 64 * 1024)
            _ = decoder.steps(from: publish[start..<end])
            sawHeld = sawHeld || budget.usedBytes > 0
            start = end
        }
        #expect(sawHeld)
        // The next small frame lets the 4 MiB buffer go.
        _ = decoder.steps(from: try ClientMessage.ping(nonce: 1).encoded(requestID: 2))
        #expect(budget.usedBytes == 0)
    }
}
