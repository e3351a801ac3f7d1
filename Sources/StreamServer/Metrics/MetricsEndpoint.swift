import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The HTTP endpoint serving Prometheus's text exposition at `GET /metrics`.
///
/// It runs on an event loop of its own, so a slow or hostile scraper never holds up the stream
/// socket, and it is safe to leave reachable by other local users: only `GET /metrics` is answered
/// (404 or 405 otherwise), a request has at most `MetricsRequestRule.maximumRequestBytes`, at most
/// `maximumConnections` connections are served at once (more are closed at once), each connection
/// must send its request within `requestTimeout` and is closed `connectionTimeout` after it opened,
/// whatever it does; every answer closes its connection.
///
/// Thread-safety: Sendable; `stop` may be called from any thread, once.
final class MetricsEndpoint: Sendable {
    /// The most connections served at once.
    static let maximumConnections = 8
    /// How long a connection may take to send its request.
    static let requestTimeout = TimeAmount.seconds(5)
    /// How long a connection may stay open at all.
    static let connectionTimeout = TimeAmount.seconds(15)

    /// The address the endpoint listens on (with the port the system picked for port 0).
    let boundAddress: SocketAddress
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(boundAddress: SocketAddress, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.boundAddress = boundAddress
        self.group = group
        self.channel = channel
    }

    /// Binds `address` and serves what `render` returns.
    ///
    /// - Throws: `StreamServerError` when the address cannot be bound (already in use, say).
    static func start(at address: MetricsAddress, render: @escaping @Sendable () -> [UInt8]) async throws -> MetricsEndpoint {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let openCount = OpenConnections()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard openCount.enter() else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in openCount.leave() }
                let requestDeadline = channel.eventLoop.scheduleTask(in: requestTimeout) { channel.close(promise: nil) }
                channel.eventLoop.scheduleTask(in: connectionTimeout) { channel.close(promise: nil) }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(MetricsRequestLimitHandler())
                    try pipeline.addHandler(HTTPResponseEncoder())
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(MetricsRequestArrival { requestDeadline.cancel() })
                    try pipeline.addHandler(MetricsHTTPHandler(render: render))
                }
            }
        do {
            let channel = try await bootstrap.bind(to: address.socketAddress).get()
            return MetricsEndpoint(boundAddress: channel.localAddress ?? address.socketAddress, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw StreamServerError(.system, "cannot listen for metrics on \(address): \(Self.reason(error)); choose another port with --metrics (or STREAMD_METRICS), or stop what holds this one.")
        }
    }

    /// Stops listening, closes every connection and ends the endpoint's thread.
    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            return error.errnoCode == EADDRINUSE ? "the address is already in use" : String(cString: strerror(error.errnoCode))
        }
        return "\(error)"
    }
}

/// Counts a metrics endpoint's open connections against `MetricsEndpoint.maximumConnections`.
///
/// Thread-safety: Sendable; an atomic counter.
private final class OpenConnections: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one in; false (counting nothing) when the maximum is already open.
    func enter() -> Bool {
        if count.wrappingAdd(1, ordering: .relaxed).newValue > MetricsEndpoint.maximumConnections {
            count.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Counts one out.
    func leave() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }
}

/// Calls `arrived` once a request's head is decoded, so its request deadline is cancelled.
///
/// Thread-safety: not Sendable; used on its channel's event loop only.
private final class MetricsRequestArrival: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private var arrived: (() -> Void)?

    init(_ arrived: @escaping () -> Void) {
        self.arrived = arrived
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            arrived?()
            arrived = nil
        }
        context.fireChannelRead(data)
    }
}
