import NIOCore
import StreamProtocol

extension StreamConnection {
    /// How often a connection sends `PING` (its reply is not waited for), so that the daemon's idle
    /// timeout (300 s by default, `streamd --idle-timeout`) never closes a connection its program
    /// still holds, such as `streamctl publish` reading a quiet standard input.
    public static let keepAliveInterval: Duration = .seconds(60)

    /// Sends `PING` on `channel` every `interval` until the channel closes; zero sends none.
    ///
    /// It holds the channel and router, never the connection, so a dropped connection still closes.
    static func keepAlive(_ channel: any Channel, router: FrameRouter, every interval: Duration) {
        guard interval > .zero else { return }
        let nanoseconds = interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
        let task = channel.eventLoop.scheduleRepeatedTask(initialDelay: .nanoseconds(nanoseconds), delay: .nanoseconds(nanoseconds)) { task in
            guard case let .success(id) = router.register(nil), let bytes = try? ClientMessage.ping(nonce: 0).encoded(requestID: id) else {
                task.cancel()
                return
            }
            channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
        }
        channel.closeFuture.whenComplete { _ in task.cancel() }
    }
}
