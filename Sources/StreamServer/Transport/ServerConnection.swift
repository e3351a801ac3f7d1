import Dispatch
import Logging
import NIOCore
import StreamProtocol
import Synchronization

/// One accepted client: its session, its channel and the serial queue its requests run on.
///
/// Requests that may wait (a conditional publish for its commit, a subscribe for a read, an admin
/// change) run on `queue`, never on the event loop; the loop answers only those that never wait.
/// The queue is serial, and the loop uses it whenever it holds work, so requests keep arrival order.
/// Thread-safety: Sendable; `isDraining` is atomic, everything else is immutable.
final class ServerConnection: Sendable {
    let session: ConnectionSession
    let channel: any Channel
    /// Who connected, as the kernel says; nil only where the kernel gives no credentials.
    let peer: PeerCredentials?
    let queue: DispatchQueue
    let outbox: ReplyOutbox
    private let draining = Atomic<Bool>(false)
    /// Where a refusal for a limit is logged (once).
    private let refusals: RefusalLog
    /// Whether the refusal or the protocol error that closed the connection was logged.
    private let refusalLogged = Atomic<Bool>(false)
    /// The connection's number in the daemon's log, from 1.
    let number: Int
    /// Where the connection's opening, closing and protocol error are logged.
    private let log: ConnectionLog
    private let openedAt = ContinuousClock.now
    /// Why the connection ends, once known (the first reason set wins).
    private let end = Mutex<ConnectionEnd?>(nil)

    /// A connection of `hub` on `channel` from `peer`, held to `access` (nil: trusted, as in tests).
    init(
        hub: StreamHub, channel: any Channel, peer: PeerCredentials?, access: AccessControl? = nil, label: String,
        keepers: [any WakeLatencyKeeper] = [], number: Int = 0, refusals: RefusalLog = RefusalLog(logger: Logger(label: "streamd")),
        log: ConnectionLog = ConnectionLog(logger: Logger(label: "streamd"))
    ) {
        self.channel = channel
        self.number = number
        self.log = log
        self.peer = peer
        self.refusals = refusals
        self.queue = DispatchQueue(label: label)
        // The session calls `output` from the event loop, its queue, the log's writer thread and its
        // subscriptions' threads, in the order its replies must go out: the outbox keeps that order.
        let outbox = ReplyOutbox(channel: channel, keepers: keepers)
        self.outbox = outbox
        session = ConnectionSession(
            hub: hub, access: access.map { .of(peer, control: $0) }, output: outbox.write, isOutputBackedUp: { outbox.isBackedUp })
    }

    /// Logs that the connection opened; call once, with no lock held.
    func logOpened() {
        log.opened(number, peer: peer)
    }

    /// Notes why the connection ends, unless a reason was noted before.
    func ends(because reason: ConnectionEnd) {
        end.withLock { if $0 == nil { $0 = reason } }
    }

    /// Logs that the connection closed, and why; call once, when it has closed.
    func logClosed() {
        let reason = end.withLock { $0 } ?? .clientClosed
        log.closed(number, peer: peer, reason: reason, duration: openedAt.duration(to: .now))
    }

    /// True once the server stopped taking requests from this connection.
    var isDraining: Bool { draining.load(ordering: .acquiring) }

    /// Stops taking new requests; those already queued still run and are answered.
    func stopTakingRequests() { draining.store(true, ordering: .releasing) }

    /// Suspends until every request queued so far has been handled (and its replies written).
    func waitForQueuedRequests() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// How long a closing connection's last frames may take to go out before it is closed anyway.
    static let closingGrace: TimeAmount = .seconds(5)

    /// Closes the channel after every frame written so far has gone out, or after `closingGrace`
    /// (a client that reads nothing must not keep it open through its unsent frames); logs why if a
    /// limit or a protocol error closed it.
    func closeAfterPendingWrites() {
        if let refusal = session.refusal {
            if !refusalLogged.exchange(true, ordering: .relaxed) {
                ends(because: .limit)
                refusals.refused(refusal, peer: peer)
            }
        } else if let failure = session.protocolFailure, !refusalLogged.exchange(true, ordering: .relaxed) {
            ends(because: .protocolError)
            log.protocolError(number, peer: peer, code: failure.code, message: failure.message)
        }
        let channel = self.channel, outbox = self.outbox
        // The frames written before this call are sent or wait in the outbox: sent first, the empty
        // write's future completes after them.
        channel.eventLoop.execute {
            outbox.send()
            channel.writeAndFlush(ByteBuffer()).whenComplete { _ in
                channel.close(promise: nil)
            }
            channel.eventLoop.scheduleTask(in: Self.closingGrace) { channel.close(promise: nil) }
        }
    }
}
