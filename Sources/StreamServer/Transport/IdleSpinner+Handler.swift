import NIOCore

extension IdleSpinner {
    /// Notes each read of a connection as activity for every spinner, then passes it on unchanged.
    /// Thread-safety: not Sendable; used on its channel's event loop only.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let spinners: [IdleSpinner]

        init(_ spinners: [IdleSpinner]) {
            self.spinners = spinners
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            for spinner in spinners { spinner.noteActivity() }
            context.fireChannelRead(data)
        }
    }
}
