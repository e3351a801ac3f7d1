import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// What the client library refuses, without sending anything, to a daemon of an older protocol: a
/// server that agrees on versions up to 3 (or 2) stands for one, over a real socket.
@Suite struct OlderDaemonTests {
    /// The refusal `body` threw, checked to be `unsupported_version` naming `feature`.
    private func expectRefusal(naming feature: String, _ body: () async throws -> Void) async {
        let refused = await #expect(throws: StreamClientError.self) { try await body() }
        guard case let .server(code, message)? = refused else {
            Issue.record("not a refusal: \(String(describing: refused))")
            return
        }
        #expect(code == .unsupportedVersion)
        #expect(message.contains("but \(feature) came with version") && message.contains("upgrade"), "\(message)")
    }

    @Test func aVersion3DaemonIsAskedForNoWindowNorConsumerAndServesTheRest() async throws {
        try await withServer(configure: { $0.limits.protocolVersions = 1...3 }) { _, directory in
            let connection = try await StreamConnection.connect(socketPath: directory.socket)
            defer { connection.close() }
            #expect(connection.protocolVersion == 3)
            await expectRefusal(naming: "de-duplication windows per stream") {
                try await connection.createStream("orders", policy: StreamPolicy(deduplication: DeduplicationWindow(events: 5)))
            }
            await expectRefusal(naming: "durable consumers") { _ = try await connection.addConsumer("billing", on: "orders") }
            // Had the refused create been sent, "orders" would exist with the default policy, and
            // this one would be refused as another policy.
            let policy = StreamPolicy(capacity: .last(3))
            #expect(try await connection.createStream("orders", policy: policy).policy == policy)
            #expect(try await connection.streamInfo("orders").policy == policy, "STREAM_INFO read in version 3's layout")
            #expect(try await connection.configureStream("orders", policy: StreamPolicy()).policy == StreamPolicy())
        }
    }

    @Test func aVersion2DaemonIsAskedForNoCompaction() async throws {
        try await withServer(configure: { $0.limits.protocolVersions = 1...2 }) { _, directory in
            let connection = try await StreamConnection.connect(socketPath: directory.socket)
            defer { connection.close() }
            await expectRefusal(naming: "COMPACT") { _ = try await connection.compact() }
            try await connection.ping()
        }
    }
}
