import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// Requests larger than the daemon accepts.
@Suite struct OversizeRequestTests {
    @Test func aPublishLargerThanTheDaemonsFrameLimitFailsAloneAndTheConnectionGoesOn() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        let collector = Collector()
        try await connection.createStream("s")
        let subscription = connection.subscribe("s", from: .all).start(collector.observer)
        let huge = [UInt8](repeating: 7, count: Int(connection.maximumFrameLength) + 1)
        // Before the fix the request went out, the daemon answered frame_too_large and closed the
        // connection, and the subscription below died with it.
        await #expect(throws: StreamClientError.requestTooLarge(frameLength: huge.count + 15, maximum: connection.maximumFrameLength)) {
            try await connection.append(huge, to: "s")
        }
        let slices = [[UInt8]](repeating: [UInt8](repeating: 1, count: 1 << 20), count: 17)
        // A batch larger than one frame goes as several batches that fit (issue 14, defect 9).
        #expect(try await connection.append(contentsOf: slices, to: "s").map(\.sequence) == Array(1...17))
        #expect(!connection.isClosed)
        #expect(try await connection.append(bytes("small"), to: "s").sequence == 18)
        #expect(await collector.waitForValues(18))
        #expect(collector.terminal == nil)
        subscription.dispose()
        connection.close()
    }
}
