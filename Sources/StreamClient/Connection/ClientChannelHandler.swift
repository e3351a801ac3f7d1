import NIOCore
import StreamProtocol

/// Cuts the socket's bytes into frames and hands each to the connection's router, on the event loop.
///
/// Thread-safety: lives on its channel's event loop only, as NIO handlers do.
final class ClientChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let router: FrameRouter
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))

    init(router: FrameRouter) {
        self.router = router
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
