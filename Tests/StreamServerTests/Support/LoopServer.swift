import Dispatch
import EventLog
import NIOCore
import NIOPosix
import StreamdTestSupport

@testable import StreamServer

/// The daemon's own connection pipeline (`ServerConnection` and `SessionHandler`) on one event loop,
/// over a hub the test holds, so a test can reach the log behind a real socket.
///
/// Thread-safety: Sendable in practice; immutable after init.
final class LoopServer: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel: any Channel
    /// The connections accepted, in order.
    let connections = LockedList<ServerConnection>()

    init(hub: StreamHub, path: String) throws {
        let connections = self.connections
        channel = try ServerBootstrap(group: group)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: ReplyOutbox.lowWater, high: ReplyOutbox.highWater))
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let connection = ServerConnection(hub: hub, channel: child, peer: nil, label: "test")
                    connections.append(connection)
                    try child.pipeline.syncOperations.addHandler(SessionHandler(connection: connection) { _ in })
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
    }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Holds the log's writer thread inside a commit's completion until `release`, so whatever is
/// appended meanwhile queues up behind it.
///
/// Thread-safety: Sendable; semaphores only.
final class WriterHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)

    init(_ log: EventLog) throws {
        if try log.streamInfo("hold") == nil { _ = try log.createStream("hold") }
        let held = DispatchSemaphore(value: 0)
        let gate = gate
        log.append([0], to: "hold") { _ in
            held.signal()
            gate.wait()
        }
        held.wait()
    }

    func release() { gate.signal() }
}
