import Foundation
import Reactive
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// The README's "shared through streamd" block, verbatim but for `print`, run against a real daemon.
@Suite struct ReadmeSharedSubjectTests {
    @Test func theSharedSubjectRunsAsItSays() async throws {
        let fixture = try DaemonFixture()
        let socket: String? = fixture.socket
        let printed = Mutex<[String]>([])
        let print: @Sendable (Double) -> Void = { value in printed.withLock { $0.append("\(value)") } }

        let connection = try await StreamConnection.connect(socketPath: socket)  // nil: the default socket
        let prices = RemoteReplaySubject<Double>(
            connection: connection, stream: "prices", policy: StreamPolicy(capacity: .last(100)))
        try await prices.append(101.5)                               // returns once the daemon has stored it
        prices.producer.map { $0 * 2 }.startWithValues { print($0) } // replays 203.0, then live values

        try await prices.append(102)
        await eventually { printed.withLock { $0.count } >= 2 }
        #expect(printed.withLock { $0 } == ["203.0", "204.0"])
        connection.close()
    }

    @Test func theReadmeShowsExactlyThisCode() throws {
        let block = try #require(try ReadmeBlocks.swiftBlock(startingWith: "import StreamClient\n"), "no README block starts with import StreamClient")
        let missing = ReadmeBlocks.missingLine(of: block, in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(missing == nil, "README line not in the test, in order: \(missing ?? "")")
    }
}
