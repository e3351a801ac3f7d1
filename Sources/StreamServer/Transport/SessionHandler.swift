import NIOCore

/// Feeds a channel's inbound bytes to its connection's session and closes the channel when the
/// session closes (and the session when the channel closes). Requests that never wait (pipelined
/// publishes, pings, credit) are handled on the event loop; the rest on the connection's queue.
///
/// Backpressure: the handler stops asking the channel for more bytes while several chunks wait on
/// the connection's queue, while the channel is not writable (the client is not reading its
/// replies) or while the session holds requests back for that reason (resumed on the queue once the
/// outbox has drained), so a fast or stuck client cannot grow the daemon's memory.
/// Time limits: a watchdog on the event loop checks the connection's `ConnectionDeadlines` a few
/// times a second (handshake, frame and idle timeouts) and closes it with `ERROR limit_exceeded`
/// when one has passed.
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
    private var deadlines: ConnectionDeadlines
    private var watchdog: RepeatedTask?

    init(connection: ServerConnection, onClose: @escaping @Sendable (ServerConnection) -> Void) {
        self.connection = connection
        self.onClose = onClose
        deadlines = ConnectionDeadlines(limits: connection.session.hub.limits.connections, now: NIODeadline.now().uptimeNanoseconds)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let limits = connection.session.hub.limits.connections
        let shortest = [limits.handshakeTimeout, limits.frameTimeout, limits.idleTimeout].filter { $0 > .zero }.min() ?? .seconds(1)
        let tick = TimeAmount.nanoseconds(min(1_000_000_000, max(20_000_000, Self.nanoseconds(shortest) / 4)))
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        watchdog = context.eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { _ in
            loopBoundSelf.value.checkDeadlines(context: loopBoundContext.value)
        }
        // Called on the loop: the requests held back while the client read nothing go on, in order.
        connection.outbox.whenDrained {
            loopBoundSelf.value.enqueue(context: loopBoundContext.value) { $0.resumeHeldRequests() }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        watchdog?.cancel()
        watchdog = nil
        // The outbox would hold the handler, which holds the connection, which holds the outbox.
        connection.outbox.whenDrained(nil)
    }

    /// Closes the connection with `ERROR limit_exceeded` if one of its time limits has passed.
    private func checkDeadlines(context: ChannelHandlerContext) {
        guard context.channel.isActive, !connection.isDraining, !connection.session.isClosed else { return }
        let busy = queuedChunks > 0 || connection.session.hasWorkInProgress
        // Only the daemon's own backlog stops the frame clock: a client that reads nothing (its
        // output backed up) could otherwise keep a half-sent frame, and its bytes, for ever.
        let held = queuedChunks > 0
        let verdict = deadlines.check(
            now: NIODeadline.now().uptimeNanoseconds, progress: connection.session.inboundProgress, busy: busy, held: held)
        guard case let .close(reason) = verdict else { return }
        connection.ends(because: deadlines.expired ?? .limit)
        watchdog?.cancel()
        watchdog = nil
        connection.session.refuse(reason)
        connection.closeAfterPendingWrites()
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !connection.isDraining else { return }
        deadlines.received(now: NIODeadline.now().uptimeNanoseconds)
        let bytes = unwrapInboundIn(data).readableBytesView
        connection.session.hub.metrics.receivedBytes.increment(by: Int64(bytes.count))
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
        watchdog?.cancel()
        watchdog = nil
        connection.outbox.whenDrained(nil)
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
            !connection.isDraining, !connection.session.holdsRequests
        else { return }
        readPending = false
        context.read()
    }
}
