import NIOCore

/// Notes each read of a connection, and each reply written to it, as activity for every keeper,
/// then passes it on unchanged: the cores stay ready while a request is being answered, however
/// long its commit takes, and for the client's turn after the reply.
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class WakeLatencyHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let keepers: [any WakeLatencyKeeper]

    init(_ keepers: [any WakeLatencyKeeper]) {
        self.keepers = keepers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for keeper in keepers { keeper.noteActivity() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        for keeper in keepers { keeper.noteActivity() }
        context.write(data, promise: promise)
    }
}
