import NIOCore

/// Feeds a channel's inbound bytes to its connection's session, off the event loop, and closes the
/// channel when the session closes (and the session when the channel closes).
///
/// Backpressure: the handler stops asking the channel for more bytes while several chunks wait on
/// the connection's queue or while the channel is not writable (the client is not reading its
/// replies), so a fast or stuck client cannot grow the daemon's memory.
/// Thread-safety: not Sendable; used on its channel's event loop only.
final class SessionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The most received chunks waiting on the connection's queue before reading pauses.
    static let maximumQueuedChunks = 4

    private let connection: ServerConnection
    private let onClose: @Sendable (ServerConnection) -> Void
    private var queuedChunks = 0
    private var readPending = false

    init(connection: ServerConnection, onClose: @escaping @Sendable (ServerConnection) -> Void) {
        self.connection = connection
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !connection.isDraining else { return }
        let buffer = unwrapInboundIn(data)
        let bytes = Array(buffer.readableBytesView)
        queuedChunks += 1
        let connection = self.connection
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        connection.queue.async {
            connection.session.receive(bytes)
            let closed = connection.session.isClosed
            eventLoop.execute {
                let handler = loopBoundSelf.value
                handler.queuedChunks -= 1
                if closed {
                    connection.closeAfterPendingWrites()
                } else {
                    handler.readIfAllowed(context: loopBoundContext.value)
                }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.session.close()
        onClose(connection)
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        readIfAllowed(context: context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        readPending = true
        readIfAllowed(context: context)
    }

    private func readIfAllowed(context: ChannelHandlerContext) {
        guard readPending, queuedChunks < Self.maximumQueuedChunks, context.channel.isWritable,
            !connection.isDraining
        else { return }
        readPending = false
        context.read()
    }
}
