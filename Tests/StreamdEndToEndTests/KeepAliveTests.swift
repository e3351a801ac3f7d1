import Foundation
import StreamdTestSupport
import Testing

@testable import StreamClient

/// A `StreamConnection` its program holds without using it is not closed by the daemon's idle timeout:
/// it sends `PING` now and then.
@Suite struct KeepAliveTests {
    @Test func aQuietConnectionOutlivesTheIdleTimeoutThroughItsPingsAndOneWithoutThemDoesNot() async throws {
        let daemon = try DaemonFixture(extra: ["--idle-timeout", "3"])
        let pinging = try await StreamConnection.connect(socketPath: daemon.socket, clientName: "t", trustedDaemonUser: nil, keepAlive: .milliseconds(300))
        // A second apart: without its pings, the first would be closed well before the second.
        try await Task.sleep(for: .seconds(1))
        let silent = try await StreamConnection.connect(socketPath: daemon.socket, clientName: "t", trustedDaemonUser: nil, keepAlive: .zero)
        // Once the silent one is closed, the idle timeout has passed for the pinging one too.
        #expect(await eventually { silent.isClosed })
        #expect(try await pinging.append(Array("still here".utf8), to: "s").sequence == 1)
        await #expect(throws: StreamClientError.self) { try await silent.append([1], to: "s") }
        pinging.close()
    }
}
