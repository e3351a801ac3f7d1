import NIOCore

/// Notes each read of a connection as activity for every keeper, then passes it on unchanged: the
/// cores stay ready while a request is being answered, however long its commit takes. The replies
/// are noted by the connection's `ReplyOutbox`, which sends most of them without the pipeline.
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class WakeLatencyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let keepers: [any WakeLatencyKeeper]

    init(_ keepers: [any WakeLatencyKeeper]) {
        self.keepers = keepers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for keeper in keepers { keeper.noteActivity() }
        context.fireChannelRead(data)
    }
}
