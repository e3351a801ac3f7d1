import Foundation
import Logging
import ServiceLifecycle
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

/// Runs a `StreamServer` on a short temporary socket under a ServiceGroup for the duration of `body`,
/// then shuts it down gracefully and waits for `run` to return.
func withServer(
    in directory: ShortTemporaryDirectory? = nil,
    configure: (inout StreamServerConfiguration) -> Void = { _ in },
    _ body: (StreamServer, ShortTemporaryDirectory) async throws -> Void
) async throws {
    let directory = try directory ?? ShortTemporaryDirectory()
    var configuration = StreamServerConfiguration(socketPath: directory.socket, databasePath: directory.database)
    configure(&configuration)
    var logger = Logger(label: "streamd-test")
    logger.logLevel = .critical
    let server = StreamServer(configuration: configuration, logger: logger)
    let group = ServiceGroup(configuration: .init(services: [.init(service: server)], logger: logger))
    let running = Task { try await group.run() }
    do {
        try await server.waitUntilListening()
        try await body(server, directory)
    } catch {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        throw error
    }
    await group.triggerGracefulShutdown()
    try await running.value
}
