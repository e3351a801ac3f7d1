import NIOCore

extension IdleSpinner {
    /// Notes each read of a connection, and each reply written to it, as activity for every spinner,
    /// then passes it on unchanged: the cores stay awake while a request is being answered, however
    /// long its commit takes, and for the client's turn after the reply.
    /// Thread-safety: not Sendable; used on its channel's event loop only.
    final class Handler: ChannelDuplexHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let spinners: [IdleSpinner]

        init(_ spinners: [IdleSpinner]) {
            self.spinners = spinners
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            for spinner in spinners { spinner.noteActivity() }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            for spinner in spinners { spinner.noteActivity() }
            context.write(data, promise: promise)
        }
    }
}
