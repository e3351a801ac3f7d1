import NIOCore
import StreamProtocol

/// Answers a connection the server will not serve with one `ERROR` frame (request id 0) saying why,
/// then closes it, reading nothing it sends. A client that reads nothing does not hold it open: the
/// frame fits in the socket's buffer, so the write completes at once.
///
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class RefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let frame: [UInt8]

    /// A handler that refuses with `code` and `message` (a sentence saying why and what to do).
    init(code: ErrorCode = .limitExceeded, message: String) {
        frame = ConnectionSession.encode(.error(code: code, message: message), requestID: 0)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func refuse(context: ChannelHandlerContext) {
        let channel = context.channel
        // Once written, the frame waits in the client's receive queue, and closing at once loses none
        // of it (a client whose HELLO was not read sees the ERROR, then a reset): the descriptor is
        // free again at once, which matters most when the server is out of descriptors.
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: frame))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension RefusalHandler: Sendable {}
