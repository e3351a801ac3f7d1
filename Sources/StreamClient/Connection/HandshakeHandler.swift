import NIOCore
import StreamProtocol

/// Opens the conversation as soon as the socket connects, on the channel's event loop: checks who
/// listens (`SO_PEERCRED`, see `DaemonIdentity`) and, only if that daemon is trusted, sends `HELLO`
/// at once. The handshake so never waits for the connecting task to be scheduled again, which on a
/// busy cooperative pool could take longer than the daemon's handshake timeout. `outcome` gets the
/// daemon's answer (`WELCOME`, or its `ERROR`), or the refusal or loss; on `WELCOME` the keep-alive
/// pings begin.
///
/// Thread-safety: lives on its channel's event loop only, as NIO handlers do.
final class HandshakeHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// Where the client connects, whom besides itself and root it trusts, how it names itself, and
    /// how often it pings once welcomed (zero: never).
    struct Hello: Sendable {
        let socketPath: String
        let trustedDaemonUser: UInt32?
        let clientName: String
        let keepAlive: Duration
    }

    private let hello: Hello
    private let router: FrameRouter
    private let outcome: EventLoopPromise<ServerMessage>

    init(_ hello: Hello, router: FrameRouter, outcome: EventLoopPromise<ServerMessage>) {
        self.hello = hello
        self.router = router
        self.outcome = outcome
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel, hello = hello, router = router, outcome = outcome
        // On the event loop the option is read at once, before any byte the daemon sends.
        Self.credentials(of: channel).whenComplete { credentials in
            do {
                try DaemonIdentity.check(try? credentials.get(), socketPath: hello.socketPath, trusted: hello.trustedDaemonUser)
            } catch {
                outcome.fail(error)
                channel.close(promise: nil)
                return
            }
            StreamConnection.send(
                .hello(minVersion: ProtocolVersions.supported.lowerBound, maxVersion: ProtocolVersions.supported.upperBound, clientName: hello.clientName), channel: channel, router: router,
                maximumFrameLength: .max
            ) { reply in
                // The pings start here, on the loop, so the idle timeout never meets a new connection
                // whose task has not run yet.
                if case let .success(.welcome(version, _, _, _)) = reply {
                    router.agree(on: version)
                    StreamConnection.keepAlive(channel, router: router, every: hello.keepAlive)
                }
                outcome.completeWith(reply.mapError { $0 as any Error })
            }
        }
        context.fireChannelActive()
    }

    // Completing a completed promise does nothing: these only settle a handshake still open.
    func handlerRemoved(context: ChannelHandlerContext) {
        outcome.fail(StreamClientError.connectionClosed("the connection closed before the handshake"))
    }

    /// The credentials of the process on the other end of `channel`; nil when the kernel gives none.
    private static func credentials(of channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let raw: EventLoopFuture<PeerCredentials.Raw> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: PeerCredentials.socketOption))
        return raw.map(PeerCredentials.init).recover { _ in nil }
    }
}

@available(*, unavailable)
extension HandshakeHandler: Sendable {}
