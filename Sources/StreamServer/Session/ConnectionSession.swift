import StreamProtocol
import Synchronization

/// The server side of one client connection, without any networking: bytes in, frames out.
///
/// `receive` cuts the inbound bytes into frames (however they are split), checks the handshake,
/// handles each request and answers through `output` with encoded frames. Requests are answered in
/// order; `EVENTS` of subscriptions are sent from their own threads and interleave with replies.
/// A publish is answered only after its commit. Publishes without a message id or an expected last
/// sequence are handed to the log without waiting (consecutive ones to a stream as one append), and
/// answered from the committing thread, in request order; any other request first waits for them. A fatal protocol error (codes below 10) ends the
/// subscriptions, is answered with `ERROR` as the session's last frame, and closes the session:
/// `isClosed` turns true and later bytes are ignored. Frames before the bad one are still handled.
/// With a `ConnectionAccess`, each request is first checked against the daemon's rules for the
/// client's uid and groups; a refused one is answered with `ERROR permission_denied`, in order, and
/// the connection goes on.
///
/// Thread-safety: Sendable. `receive` must be called by one thread at a time (as a channel handler
/// does); `close` and everything else may be called from any thread. `output` is called from several
/// threads (the receiving one and the subscriptions' queues) and must be safe for that; it is never
/// called while a lock of the session is held.
public final class ConnectionSession: Sendable {
    /// The hub this connection is served by.
    public let hub: StreamHub
    /// Who the client is and the rules it is held to; nil lets it do everything (in process).
    public let access: ConnectionAccess?

    private struct Subscriptions {
        var live: [UInt32: any LiveSubscription] = [:]
        /// Ids between the `SUBSCRIBE` check and the subscription's opening.
        var reserved: Set<UInt32> = []
        var closed = false
    }

    private let output: @Sendable ([UInt8]) -> Void
    /// Whether the client has fallen behind reading its replies (`ReplyOutbox.isBackedUp`).
    let isOutputBackedUp: @Sendable () -> Bool
    /// Requests read and not handled while the output is backed up, in order (`run`).
    let heldBack = Mutex<ArraySlice<Step>>([])
    let inbound: Mutex<StepDecoder>
    private let subscriptions = Mutex(Subscriptions())
    /// Set once the session must write nothing more.
    let silenced = Atomic<Bool>(false)
    private let outputWritable = Atomic<Bool>(true)
    /// Replies to publishes handed to the log, not yet committed.
    let pipelinedReplies = OrderedReplies()
    /// The protocol version agreed in the handshake (the newest until then): replies are encoded in
    /// its layouts. Stored as `WELCOME` is sent, before anything that could be encoded in them.
    private let agreedVersion = Atomic<UInt16>(ProtocolVersions.newest)

    /// A session of `hub` that writes its encoded frames to `output`; with `access`, each request is
    /// checked against its rules first. While `isOutputBackedUp` says so, requests wait
    /// (`resumeHeldRequests`).
    public init(
        hub: StreamHub, access: ConnectionAccess? = nil, output: @escaping @Sendable ([UInt8]) -> Void,
        isOutputBackedUp: @escaping @Sendable () -> Bool = { false }
    ) {
        self.hub = hub
        self.access = access
        self.output = output
        self.isOutputBackedUp = isOutputBackedUp
        let limits = hub.limits
        inbound = Mutex(StepDecoder(
            frames: FrameDecoder(maximumLength: limits.maximumFrameLength),
            connection: ConnectionState(
                supportedVersions: limits.protocolVersions,
                maximumFrameLength: UInt32(clamping: limits.maximumFrameLength),
                maximumSubscriptions: UInt32(clamping: limits.maximumSubscriptionsPerConnection),
                serverName: hub.serverName),
            maximumEventBytes: hub.log.options.maximumEventBytes,
            budget: hub.partialFrameBytes))
        hub.connectionOpened()
    }

    // A session dropped without `close` (a lost connection) must not leave subscriptions behind in
    // the hub: they hold the hub and their stream's observation until they end.
    deinit {
        inbound.withLock { $0.close() }
        endSubscriptions()
        hub.connectionClosed()
    }

    /// Whether the session is closed (after a fatal error or `close`).
    public var isClosed: Bool { inbound.withLock { $0.isClosed } }

    /// The number of live subscriptions.
    public var subscriptionCount: Int { subscriptions.withLock { $0.live.count } }

    /// Feeds bytes received from the client, in any split; handles every whole frame among them.
    public func receive(_ bytes: some Collection<UInt8>) {
        run(decode(bytes)[...])
    }

    /// Feeds bytes like `receive(_:)`, but handles here only the requests that never wait (pipelined
    /// publishes with the log idle or busy, pings, credit); from the first one that may wait (for a
    /// commit, a read, an admin change) on, it hands the rest, in order, to `later` as one piece of
    /// work, which must run before the next bytes are fed. An event loop can so answer most requests
    /// without a thread hop, and leave the rest to a queue.
    public func receive(_ bytes: some Collection<UInt8>, deferringWaitsTo later: (@escaping @Sendable () -> Void) -> Void) {
        let steps = decode(bytes)
        let quick = runWhileQuick(steps)
        guard quick < steps.count else { return }
        let rest = steps[quick...]
        later { self.run(rest) }
    }

    /// The requests and protocol replies in the frames completed by `bytes`.
    private func decode(_ bytes: some Collection<UInt8>) -> [Step] {
        inbound.withLock { $0.steps(from: bytes) }
    }

    /// Whether the transport takes more output now; subscriptions send nothing while it does not.
    public var isOutputWritable: Bool { outputWritable.load(ordering: .acquiring) }

    /// Tells the session whether the transport takes more output (a socket whose client stops reading
    /// fills up); when it does again, paused subscriptions go on from where they stopped.
    public func outputWritabilityChanged(_ writable: Bool) {
        outputWritable.store(writable, ordering: .releasing)
        guard writable else { return }
        for subscription in subscriptions.withLock({ Array($0.live.values) }) { subscription.resume() }
    }

    /// Closes the session: ends its subscriptions without a frame and ignores later bytes.
    public func close() {
        inbound.withLock { $0.close() }
        heldBack.withLock { $0 = [] }
        endSubscriptions()
        silenced.store(true, ordering: .releasing)
    }

    /// Tells the client the server is stopping: each subscription ends with `SUBSCRIPTION_ENDED`
    /// (reason: server shutting down), then `ERROR shutting_down` (request id 0), and the session closes.
    public func shutDown() {
        inbound.withLock { $0.close() }
        pipelinedReplies.waitUntilAnswered()
        let ending = subscriptions.withLock { table -> [any LiveSubscription] in
            table.closed = true
            return Array(table.live.values)
        }
        for subscription in ending {
            subscription.end(reason: .serverShuttingDown, message: "the server is shutting down.", replyTo: subscription.requestID)
        }
        send(.error(code: .shuttingDown, message: "the server is shutting down; reconnect later."), requestID: 0)
        silenced.store(true, ordering: .releasing)
    }

    // MARK: Output

    /// The protocol version agreed with the client, in whose layouts replies are encoded.
    var protocolVersion: UInt16 { agreedVersion.load(ordering: .acquiring) }

    /// Encodes and writes `message`, unless the session was closed.
    func send(_ message: ServerMessage, requestID: UInt32) {
        if case let .welcome(version, _, _, _) = message { agreedVersion.store(version, ordering: .releasing) }
        write(Self.encode(message, requestID: requestID, version: protocolVersion))
    }

    /// Writes frames already encoded, unless the session was closed.
    func write(_ frames: [UInt8]) {
        guard !silenced.load(ordering: .acquiring), !frames.isEmpty else { return }
        hub.metrics.sentBytes.increment(by: Int64(frames.count))
        output(frames)
    }

    /// `message` as a frame; a reply that cannot be encoded (a name too long for the wire, say)
    /// becomes an `ERROR internal` saying so.
    static func encode(_ message: ServerMessage, requestID: UInt32, version: UInt16 = ProtocolVersions.newest) -> [UInt8] {
        var writer = WireWriter(capacity: 64 + message.payloadSizeHint, version: version)
        encode(message, requestID: requestID, into: &writer)
        return writer.bytes
    }

    /// Appends `message` as a frame to `writer`, as `encode(_:requestID:)` makes it.
    static func encode(_ message: ServerMessage, requestID: UInt32, into writer: inout WireWriter) {
        if case let .error(code, _) = message { ServerMetrics.countError(code) }
        do {
            try message.encode(requestID: requestID, into: &writer)
        } catch {
            let failure = ServerMessage.error(code: .internal, message: "a reply could not be encoded: \(error)")
            try? failure.encode(requestID: requestID, into: &writer)
        }
    }

    /// The bytes of one `PUBLISHED` frame: length, header, sequence, timestamp, duplicate flag.
    static let publishedFrameLength = 4 + Frame.headerLength + 8 + 8 + 1

    // MARK: Subscriptions

    func endSubscriptions() {
        let ending = subscriptions.withLock { table -> [any LiveSubscription] in
            table.closed = true
            return Array(table.live.values)
        }
        for subscription in ending {
            subscription.end(reason: .unsubscribed, message: "", replyTo: nil)
        }
    }

    /// Reserves `id` for a new subscription, or says why it cannot be had.
    func reserveSubscription(_ id: UInt32) -> ServerError? {
        subscriptions.withLock { table in
            if table.closed { return ServerError(.shuttingDown, "the connection is closing.") }
            if table.live[id] != nil || table.reserved.contains(id) {
                return ServerError(.subscriptionIDInUse, "subscription id \(id) is already live on this connection; pick another id or unsubscribe it first.")
            }
            let maximum = hub.limits.maximumSubscriptionsPerConnection
            guard table.live.count + table.reserved.count < maximum else {
                return ServerError(.limitExceeded, "this connection already holds \(maximum) subscriptions, the maximum; unsubscribe some first.")
            }
            table.reserved.insert(id)
            return nil
        }
    }

    /// Turns a reservation into a live subscription (or drops it when `subscription` is nil).
    /// Returns false if the session closed meanwhile, or the subscription ended already (its stream
    /// deleted as it opened): kept, it would count against the connection's limit for ever, as its
    /// end found nothing to remove. One that ends later removes itself (`removeSubscription`, under
    /// the same lock).
    func settleReservation(_ id: UInt32, with subscription: (any LiveSubscription)?) -> Bool {
        subscriptions.withLock { table in
            table.reserved.remove(id)
            guard let subscription, !table.closed, !subscription.isEnded else { return false }
            table.live[id] = subscription
            return true
        }
    }

    /// The live subscriptions, as a snapshot.
    func liveSubscriptions() -> [any LiveSubscription] {
        subscriptions.withLock { Array($0.live.values) }
    }

    func subscription(_ id: UInt32) -> (any LiveSubscription)? {
        subscriptions.withLock { $0.live[id] }
    }

    func removeSubscription(_ subscription: any LiveSubscription) {
        subscriptions.withLock { table in
            if table.live[subscription.id] === subscription { table.live[subscription.id] = nil }
        }
    }
}
