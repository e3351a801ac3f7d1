import Foundation
import Logging
import Dispatch
import EventLog
import StreamProtocol
import Synchronization

/// The daemon's engine: one event log served to many connections, under one set of limits.
///
/// A hub holds, per stream, the lock that makes a publish with `expected_last_sequence` atomic with
/// respect to every other publish through this hub, and the window of recent message ids. It also
/// knows every live subscription, to count them and to end them when their stream is deleted.
/// Thread-safety: Sendable; every method may be called from any thread; publishes to one stream are
/// serialized by that stream's lock, publishes to different streams run in parallel.
public final class StreamHub: Sendable {
    /// The log every connection reads and writes: an SQLite `EventLog` or a `PostgresLog`.
    package let log: any ServedLog
    /// The limits every connection is held to.
    public let limits: ServerLimits
    /// The name announced in `WELCOME`.
    public let serverName: String

    /// Start time, connections and publish rates, for `STATS` and `STREAM_INFO`.
    let activity = HubActivity()
    /// The server's metric handles (no-ops unless the process bootstrapped swift-metrics).
    public let metrics = ServerMetrics()
    /// The bytes of message ids every stream's window remembers, together.
    let deduplicationBytes: ByteBudget
    /// The bytes every connection buffers of frames it has begun and not finished, together.
    public let partialFrameBytes: ByteBudget
    let streams = Mutex<[String: StreamEntry]>([:])
    private let subscriptions = Mutex<[String: [ObjectIdentifier: Subscription]]>([:])
    /// Where subscribers falling behind are logged.
    let subscriberLog: SubscriberLog
    /// Where the hub's own troubles (a consumer that cannot read its stream) are logged.
    let logger: Logger
    /// The durable consumers loaded so far, by stream and name.
    let consumers = Mutex<[ConsumerKey: ServedConsumer]>([:])
    /// Stores the consumers' changes.
    let consumerSaver: ConsumerSaver
    /// The lease this daemon serves consumers under (several daemons may share a PostgreSQL log).
    let consumerLease: ConsumerLease

    /// A hub serving `log` under `limits`, announcing itself as `serverName`, logging to `logger`.
    package init(log: any ServedLog, limits: ServerLimits = ServerLimits(), serverName: String = "streamd", logger: Logger = Logger(label: "streamd")) {
        subscriberLog = SubscriberLog(logger: logger)
        self.logger = logger
        let lease = ConsumerLease(owner: "\(ProcessInfo.processInfo.hostName)/\(getpid())/\(UUID().uuidString)")
        consumerLease = lease
        let lostConsumers = LostConsumers()
        consumerSaver = ConsumerSaver(log: log, lease: lease) { records in lostConsumers.hub?.lost(records) }
        self.log = log
        self.limits = limits
        self.serverName = serverName
        deduplicationBytes = ByteBudget(limit: limits.deduplicationBytesTotal)
        partialFrameBytes = ByteBudget(limit: limits.connections.maximumPartialFrameBytes)
        lostConsumers.hub = self
    }

    /// The number of live subscriptions to `stream`, over all connections.
    public func subscriberCount(of stream: String) -> Int {
        subscriptions.withLock { $0[stream]?.count ?? 0 }
    }

    /// The number of live subscriptions over every stream and connection.
    var subscriptionCount: Int {
        subscriptions.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }

    // MARK: Streams

    /// The lock and de-duplication window of `stream`, made on first use.
    func entry(for stream: String) -> StreamEntry {
        streams.withLock { entries in
            if let entry = entries[stream] { return entry }
            let entry = StreamEntry(window: RememberedMessageIDs(
                within: log.options.deduplication(of: StreamPolicy()), byteLimit: limits.deduplicationWindowBytes, shared: deduplicationBytes))
            entries[stream] = entry
            return entry
        }
    }

    /// Whether an unconditional publish to `stream` would find it without asking the catalog.
    func isKnownToExist(_ stream: String) -> Bool {
        streams.withLock { $0[stream]?.exists.load(ordering: .acquiring) ?? false }
    }

    /// Creates `stream` with `policy` unless the stream limit is reached.
    @discardableResult
    func ensureStreamWithinLimit(_ stream: String, policy: StreamPolicy = StreamPolicy()) throws -> StreamState {
        if let existing = try log.catalogEntry(stream) { return existing }
        let count = try log.streamCount()
        guard count < limits.maximumStreams else {
            throw ServerError(.limitExceeded, "the server holds \(count) streams, its maximum; delete streams or raise the limit before creating \"\(stream)\".")
        }
        try policy.validate(stream: stream)
        return try log.ensuredStream(stream, policy: policy)
    }

    /// `info` with what only the daemon knows: its live subscriptions and recent publish rate.
    func served(_ info: StreamInfo) -> StreamInfo {
        var info = info
        info.subscribers = UInt32(clamping: subscriberCount(of: info.name))
        info.publishRateMillis = activity.rateMillis(of: info.name)
        return info
    }

    /// Removes `stream`'s lock and window once the stream is gone.
    func forget(_ stream: String) {
        _ = streams.withLock { $0.removeValue(forKey: stream) }
        activity.forget(stream)
    }

    // MARK: Subscriptions

    /// Every live subscription, as a snapshot (for the metrics).
    func liveSubscriptions() -> [Subscription] {
        subscriptions.withLock { $0.values.flatMap(\.values) }
    }

    func register(_ subscription: Subscription) {
        subscriptions.withLock { $0[subscription.stream, default: [:]][ObjectIdentifier(subscription)] = subscription }
    }

    func unregister(_ subscription: Subscription) {
        subscriptions.withLock { all in
            all[subscription.stream]?[ObjectIdentifier(subscription)] = nil
            if all[subscription.stream]?.isEmpty == true { all[subscription.stream] = nil }
        }
    }

    /// Ends every subscription to `stream` (deleted) with `SUBSCRIPTION_ENDED`.
    func endSubscriptions(to stream: String, reason: SubscriptionEndReason, message: String) {
        let ending = subscriptions.withLock { Array(($0[stream] ?? [:]).values) }
        for subscription in ending {
            subscription.end(reason: reason, message: message, replyTo: subscription.requestID)
        }
    }
}

/// One stream's publish lock, its recent message ids, and its appends still committing.
///
/// Thread-safety: Sendable; the window sits in a Mutex held for the whole of a conditional publish
/// (or a de-duplicated one) and for the hand-over of an unconditional one to the log.
final class StreamEntry: Sendable {
    let window: Mutex<RememberedMessageIDs>
    /// Unconditional appends handed to the log and not yet committed; a conditional publish waits
    /// for them, holding the window, so the last sequence it checks is the one it appends after.
    let committing = DispatchGroup()
    /// Whether the stream is known to exist, so an unconditional publish need not ask the catalog.
    let exists = Atomic<Bool>(false)
    /// The last sequence this daemon saw committed to the stream (0 after a delete): the window's
    /// count bound moves with every publish, with message ids or without.
    let lastSequence = Atomic<UInt64>(0)

    /// Notes that the stream reached `sequence`.
    func committed(through sequence: UInt64) {
        lastSequence.max(sequence, ordering: .relaxed)
    }

    init(window: RememberedMessageIDs) {
        self.window = Mutex(window)
    }

    // The hub's budget of remembered ids gets this stream's share back when the stream is forgotten.
    deinit {
        window.withLock { $0.forgetAll() }
    }
}
