import NIOCore

/// Feeds a channel's inbound bytes to its connection's session and closes the channel when the
/// session closes (and the session when the channel closes). Requests that never wait (pipelined
/// publishes, pings, credit) are handled on the event loop; the rest on the connection's queue.
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
        let bytes = unwrapInboundIn(data).readableBytesView
        // With nothing queued, requests that never wait are answered right here, and only the rest
        // goes to the queue; otherwise everything queues behind what is there, to keep the order.
        guard queuedChunks == 0 else {
            enqueue(context: context) { $0.receive(bytes) }
            return
        }
        var deferred = false
        connection.session.receive(bytes) { rest in
            deferred = true
            enqueue(context: context) { _ in rest() }
        }
        // Work handed to the queue closes the channel itself once it has answered.
        if !deferred, connection.session.isClosed { connection.closeAfterPendingWrites() }
    }

    /// Runs `work` on the connection's queue, pausing reads while too much waits there.
    private func enqueue(context: ChannelHandlerContext, _ work: @escaping @Sendable (ConnectionSession) -> Void) {
        queuedChunks += 1
        let connection = self.connection
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        connection.queue.async {
            work(connection.session)
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
        connection.session.outputWritabilityChanged(context.channel.isWritable)
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
