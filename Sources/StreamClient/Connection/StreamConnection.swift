import Foundation
import NIOCore
import NIOPosix
import StreamProtocol

/// One connection to `streamd` over its Unix domain socket: requests with ids, replies matched to them,
/// and the subscriptions opened on it.
///
/// Calls may be made concurrently; each waits for its own reply (cancelling the calling task does not
/// withdraw a request already sent: the daemon may still carry it out). When the connection is lost (the
/// daemon stops, or `close()`), every waiting call throws `StreamClientError.connectionClosed` and
/// every subscription fails with it (or, with `resume: true`, reconnects).
///
/// Thread-safety: Sendable; every member may be used from any thread or task.
///
/// ## Example
///
/// ```swift
/// let connection = try await StreamConnection.connect()          // the daemon's default socket
/// let receipt = try await connection.append(Array("hello".utf8), to: "greetings")
/// for try await event in connection.events(in: "greetings", from: .all) {
///     print(event.sequence, String(decoding: event.payload, as: UTF8.self))
/// }
/// ```
public final class StreamConnection: Sendable {
    /// The socket this connection was made to.
    public let socketPath: String
    /// The user, besides this process's own and root, whose daemon this connection was allowed to trust.
    public let trustedDaemonUser: UInt32?
    /// The protocol version agreed in the handshake.
    public let protocolVersion: UInt16
    /// The largest frame the server accepts.
    public let maximumFrameLength: UInt32
    /// The server's name from its `WELCOME`.
    public let serverName: String

    let channel: any Channel
    let router: FrameRouter

    private init(socketPath: String, trustedDaemonUser: UInt32?, channel: any Channel, router: FrameRouter, welcome: ServerMessage) {
        self.socketPath = socketPath
        self.trustedDaemonUser = trustedDaemonUser
        self.channel = channel
        self.router = router
        if case let .welcome(version, maxFrameLength, _, name) = welcome {
            protocolVersion = version
            maximumFrameLength = maxFrameLength
            serverName = name
        } else {
            protocolVersion = 1
            maximumFrameLength = UInt32(Frame.defaultMaximumLength)
            serverName = "streamd"
        }
    }

    deinit { channel.close(promise: nil) }

    /// Connects to the daemon at `socketPath` (by default `StreamdDefaults.socketPath()`) and completes the
    /// handshake.
    ///
    /// Before sending anything it checks, by the kernel's `SO_PEERCRED`, that the process listening on
    /// the socket runs as this process's user, as root, or as `trustedDaemonUser`; and, for a socket in
    /// a default place (`/tmp/streamd-<uid>`, `$XDG_RUNTIME_DIR`), that its directory is the user's alone.
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's socket; nil for the default.
    ///   - clientName: the name this program gives itself in the handshake (`HELLO`).
    ///   - trustedDaemonUser: a uid whose daemon may be trusted too (a shared service's user).
    /// - Throws: `StreamClientError.daemonNotRunning` naming the socket when nothing listens there;
    ///   `.untrustedDaemon` (nothing sent) when the daemon or the socket's directory is another user's;
    ///   `.server` when the daemon refuses the handshake.
    public static func connect(
        socketPath: String? = nil, clientName: String = "StreamClient", trustedDaemonUser: UInt32? = nil
    ) async throws -> StreamConnection {
        try await connect(socketPath: socketPath, clientName: clientName, trustedDaemonUser: trustedDaemonUser, keepAlive: keepAliveInterval)
    }

    /// `connect(socketPath:clientName:trustedDaemonUser:)` with a `PING` every `keepAlive` (zero: none).
    static func connect(
        socketPath: String?, clientName: String, trustedDaemonUser: UInt32?, keepAlive: Duration
    ) async throws -> StreamConnection {
        let path = socketPath ?? StreamdDefaults.socketPath()
        try DaemonIdentity.checkDirectory(of: path)
        let router = FrameRouter()
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let handshake = loop.makePromise(of: ServerMessage.self)
        let hello = HandshakeHandler.Hello(
            socketPath: path, trustedDaemonUser: trustedDaemonUser, clientName: clientName, keepAlive: keepAlive)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(
                            HandshakeHandler(hello, router: router, outcome: handshake), ClientChannelHandler(router: router))
                    }
                }
                .connect(unixDomainSocketPath: path)
                .get()
        } catch {
            handshake.fail(StreamClientError.daemonNotRunning(socketPath: path, reason: "\(error)"))
            throw StreamClientError.daemonNotRunning(socketPath: path, reason: "\(error)")
        }
        let welcome: ServerMessage
        do {
            welcome = try await handshake.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error
        }
        if case let .error(code, text) = welcome {
            channel.close(promise: nil)
            throw StreamClientError.server(code: code, message: text)
        }
        guard case .welcome = welcome else {
            channel.close(promise: nil)
            throw StreamClientError.protocolViolation("expected WELCOME, got \(welcome)")
        }
        return StreamConnection(socketPath: path, trustedDaemonUser: trustedDaemonUser, channel: channel, router: router, welcome: welcome)
    }

    /// Closes the connection: waiting calls throw and subscriptions fail with `.connectionClosed`.
    public func close() {
        router.lost(.connectionClosed("the connection was closed by the client"))
        channel.close(promise: nil)
    }

    /// Whether the connection has been lost or closed.
    public var isClosed: Bool { router.lostError != nil }

    /// Sends `message` and waits for its reply; an `ERROR` reply throws `.server`.
    func request(_ message: ClientMessage) async throws -> ServerMessage {
        try await Self.request(message, channel: channel, router: router, maximumFrameLength: maximumFrameLength)
    }

    /// Sends a message that gets no reply (or whose reply nobody waits for).
    func send(_ message: ClientMessage) {
        guard case let .success(id) = router.register(nil), let bytes = try? message.encoded(requestID: id, version: router.protocolVersion),
            bytes.count - 4 <= Int(maximumFrameLength)
        else { return }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    /// Sends `message` under a fresh request id whose reply goes to `handler`.
    func send(_ message: ClientMessage, replies handler: @escaping FrameRouter.ReplyHandler) {
        Self.send(message, channel: channel, router: router, maximumFrameLength: maximumFrameLength, replies: handler)
    }

    /// Sends `message` on `channel` under a fresh request id whose reply goes to `handler`.
    static func send(
        _ message: ClientMessage, channel: any Channel, router: FrameRouter, maximumFrameLength: UInt32,
        replies handler: @escaping FrameRouter.ReplyHandler
    ) {
        let id: UInt32
        switch router.register(handler) {
        case let .success(registered): id = registered
        case let .failure(error): return handler(.failure(error))
        }
        let bytes: [UInt8]
        do {
            bytes = try message.encoded(requestID: id, version: router.protocolVersion)
        } catch {
            router.unregister(id)?(.failure(.protocolViolation("cannot encode the request: \(error)")))
            return
        }
        // The daemon answers a frame over its limit by closing the connection, which would end every
        // other request and subscription on it: refuse this one request here instead.
        guard bytes.count - 4 <= Int(maximumFrameLength) else {
            router.unregister(id)?(.failure(.requestTooLarge(frameLength: bytes.count - 4, maximum: maximumFrameLength)))
            return
        }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenFailure { error in
            router.unregister(id)?(.failure(.connectionClosed("\(error)")))
        }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: promise)
    }

    private static func request(
        _ message: ClientMessage, channel: any Channel, router: FrameRouter, maximumFrameLength: UInt32
    ) async throws -> ServerMessage {
        let reply = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ServerMessage, any Error>) in
            send(message, channel: channel, router: router, maximumFrameLength: maximumFrameLength) { result in
                continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
        if case let .error(code, text) = reply { throw StreamClientError.server(code: code, message: text) }
        return reply
    }
}
