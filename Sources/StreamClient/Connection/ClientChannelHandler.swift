import NIOCore
import StreamProtocol

/// Cuts the socket's bytes into frames and hands each to the connection's router, on the event loop;
/// and, once connected, reads who the daemon is (`SO_PEERCRED`) into `daemon`, before any byte is read,
/// so a daemon that answers and closes at once (a refusal) is still identified.
///
/// Thread-safety: lives on its channel's event loop only, as NIO handlers do.
final class ClientChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let router: FrameRouter
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))
    /// Completed once: with the daemon's credentials when the channel becomes active, else with nil.
    private var daemon: EventLoopPromise<PeerCredentials?>?

    init(router: FrameRouter, daemon: EventLoopPromise<PeerCredentials?>) {
        self.router = router
        self.daemon = daemon
    }

    func channelActive(context: ChannelHandlerContext) {
        if let daemon, let provider = context.channel as? any SocketOptionProvider {
            // On the channel's event loop the option is read at once, before the next read.
            let raw: EventLoopFuture<PeerCredentials.Raw> = provider.unsafeGetSocketOption(
                level: .socket, name: NIOBSDSocket.Option(rawValue: PeerCredentials.socketOption))
            raw.map(PeerCredentials.init).recover { _ in nil }.cascade(to: daemon)
            self.daemon = nil
        }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        settleDaemon(nil)
    }

    private func settleDaemon(_ credentials: PeerCredentials?) {
        daemon?.succeed(credentials)
        daemon = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard let bytes = buffer.readBytes(length: buffer.readableBytes) else { return }
        decoder.append(bytes)
        do {
            while let frame = try decoder.next() {
                router.route(frame)
            }
        } catch {
            router.lost(.protocolViolation("\(error)"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        settleDaemon(nil)
        router.lost(.connectionClosed("the daemon closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        router.lost(.connectionClosed("\(error)"))
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension ClientChannelHandler: Sendable {}
