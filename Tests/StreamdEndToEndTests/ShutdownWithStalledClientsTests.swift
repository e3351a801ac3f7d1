import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// A graceful stop must not wait on clients that do not read.
@Suite struct ShutdownWithStalledClientsTests {
    @Test func sigtermStopsTheDaemonPromptlyWhileASubscriberIsNotReading() async throws {
        let daemon = try DaemonFixture()
        let publisher = try await StreamConnection.connect(socketPath: daemon.socket)
        try await publisher.createStream("s")
        let stalled = try SocketClient.connected(to: daemon.socket)
        let reply = try stalled.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: .max)))
        guard case .subscribed = reply else { throw TestFailure("not subscribed: \(reply)") }
        // Far more than the socket buffers hold, so the daemon has frames it cannot write.
        for chunk in 0..<20 {
            _ = try await publisher.append(contentsOf: (0..<1000).map { _ in [UInt8](repeating: UInt8(chunk), count: 100) }, to: "s")
        }
        publisher.close()
        let clock = ContinuousClock()
        let started = clock.now
        let exit = daemon.stop(with: SIGTERM)
        let stopping = clock.now - started
        #expect(exit == 0)
        // The daemon gives a client that does not read its close timeout (5 s) to take its last frames,
        // then closes it; the bound leaves room for Foundation noticing the exit late (up to 5 s more,
        // `waitForExitStatus`) on a loaded machine, not for waiting forever.
        #expect(stopping < .seconds(20), "SIGTERM took \(stopping) with a subscriber not reading")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
        withExtendedLifetime(stalled) {}
    }
}
