import NIOCore

extension IdleSpinner {
    /// Notes each read of a connection as activity, then passes it on unchanged.
    /// Thread-safety: not Sendable; used on its channel's event loop only.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private let spinner: IdleSpinner

        init(_ spinner: IdleSpinner) {
            self.spinner = spinner
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            spinner.noteActivity()
            context.fireChannelRead(data)
        }
    }
}
