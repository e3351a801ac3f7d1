import Dispatch
import EventLog
import Foundation
import NIOCore
import NIOPosix
import StreamServer
import Synchronization

/// A minimal stand-in for `streamd` in tests: a SwiftNIO Unix-socket server that feeds each connection's
/// bytes to a `ConnectionSession` on a serial queue of its own and writes the session's frames back.
///
/// Thread-safety: Sendable; the list of live sessions is under a mutex.
final class TestServer: Sendable {
    let socketPath: String
    let databasePath: String
    let hub: StreamHub
    private let channel: any Channel
    private let connections = LiveConnections()

    /// Serves a log at `databasePath` on `socketPath` (replacing a stale socket file).
    init(socketPath: String, databasePath: String) async throws {
        self.socketPath = socketPath
        self.databasePath = databasePath
        let hub = StreamHub(log: try EventLog(path: databasePath))
        self.hub = hub
        let connections = connections
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                let session = ConnectionSession(hub: hub) { bytes in
                    child.writeAndFlush(child.allocator.buffer(bytes: bytes), promise: nil)
                }
                connections.list.withLock { $0.append((child, session)) }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(SessionHandler(session: session))
                }
            }
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true)
            .get()
    }

    /// Stops listening, ends every connection (abruptly, as a crash would, or with the daemon's
    /// shutdown frames when `gracefully`) and closes the log.
    func stop(gracefully: Bool = false) async {
        try? await channel.close()
        let live = connections.list.withLock { live in
            defer { live = [] }
            return live
        }
        for (child, session) in live {
            if gracefully { session.shutDown() } else { session.close() }
            try? await child.close()
        }
        hub.log.close()
    }
}

/// The connections a server has accepted, so `stop` can drop them.
private final class LiveConnections: Sendable {
    let list = Mutex<[(any Channel, ConnectionSession)]>([])
}

/// Hands a connection's bytes to its session off the event loop, in order.
private final class SessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let session: ConnectionSession
    private let queue = DispatchQueue(label: "TestServer.session")

    init(session: ConnectionSession) {
        self.session = session
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard let bytes = buffer.readBytes(length: buffer.readableBytes) else { return }
        queue.async { [session] in session.receive(bytes) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        queue.async { [session] in session.close() }
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension SessionHandler: Sendable {}
