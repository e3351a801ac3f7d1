import Foundation
import Logging
import NIOCore

/// Keeps a listening socket from spinning when the process is out of file descriptors, and refuses
/// the clients that wait meanwhile rather than leaving them hanging.
///
/// When accept fails with EMFILE or ENFILE (or ENOBUFS, ENOMEM), the kernel still reports the socket
/// readable, and an event loop that reads again at once spins a core. This handler, first on the
/// server channel, catches the error: it spends the `DescriptorReserve` and lets the next accept take
/// one client, marked for the child initializer to answer with an `ERROR` and close; when the reserve
/// is spent already, it holds reads back for `backoff`. It logs the start of each episode once, and
/// its end with how many clients were refused meanwhile.
/// Thread-safety: not Sendable; used on the server channel's event loop only.
final class DescriptorExhaustionHandler: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never

    private let reserve: DescriptorReserve
    private let logger: Logger
    private let backoff: TimeAmount
    private var refuseNext = false
    private var inEpisode = false
    private var refusedInEpisode = 0
    private var readAfter: NIODeadline?
    private var scheduledRead: Scheduled<Void>?

    init(reserve: DescriptorReserve, logger: Logger, backoff: TimeAmount = .milliseconds(25)) {
        self.reserve = reserve
        self.logger = logger
        self.backoff = backoff
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        if !inEpisode {
            inEpisode = true
            refusedInEpisode = 0
            logger.warning("streamd is out of file descriptors: refusing new connections until some close", metadata: [
                "error": "\(String(cString: strerror(error.errnoCode)))", "descriptor-limit": "\(Self.descriptorLimit)",
            ])
        }
        if !refuseNext, reserve.spend() {
            refuseNext = true
        } else {
            readAfter = .now() + backoff
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let client = unwrapInboundIn(data)
        if refuseNext {
            refuseNext = false
            refusedInEpisode += 1
            reserve.mark(client)
        } else if inEpisode, reserve.hold() {
            inEpisode = false
            logger.notice("streamd has file descriptors again", metadata: ["refused-meanwhile": "\(refusedInEpisode)"])
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        guard scheduledRead == nil else { return }
        guard let readAfter, readAfter > .now() else {
            self.readAfter = nil
            // A reserve that could not be had back when its client closed is taken as soon as it can be.
            if !refuseNext { reserve.hold() }
            context.read()
            return
        }
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        scheduledRead = context.eventLoop.scheduleTask(deadline: readAfter) {
            let handler = loopBoundSelf.value
            handler.scheduledRead = nil
            handler.readAfter = nil
            if !handler.refuseNext { handler.reserve.hold() }
            loopBoundContext.value.read()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        scheduledRead?.cancel()
        scheduledRead = nil
    }

    /// The process's soft limit on open files, for the log.
    static var descriptorLimit: String {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return "unknown" }
        return limit.rlim_cur == rlim_t.max ? "unlimited" : "\(limit.rlim_cur)"
    }
}

@available(*, unavailable)
extension DescriptorExhaustionHandler: Sendable {}
