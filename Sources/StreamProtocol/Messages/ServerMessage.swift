/// A message the server sends to a client.
public enum ServerMessage: Sendable, Hashable {
    /// The answer to `HELLO`: the version spoken and the server's limits.
    case welcome(version: UInt16, maxFrameLength: UInt32, maxSubscriptions: UInt32, serverName: String)
    /// The answer to `PING`.
    case pong(nonce: UInt64)
    /// A publish was stored; `duplicate` says it had been stored before under the same message id.
    case published(sequence: UInt64, timestamp: Int64, duplicate: Bool)
    /// A batch was stored, one entry per published event, in order.
    case publishedBatch(entries: [PublishedEntry], timestamp: Int64)
    /// A subscription is open; `nextSequence` is the first sequence it will deliver if still retained.
    case subscribed(subscriptionID: UInt32, nextSequence: UInt64)
    /// Events for a subscription, in sequence order.
    case events(subscriptionID: UInt32, events: [WireEvent])
    case subscriptionEnded(subscriptionID: UInt32, reason: SubscriptionEndReason, message: String)
    /// One stream, answering `CREATE_STREAM`, `CONFIGURE_STREAM` or `GET_STREAM_INFO`.
    case streamInfo(StreamInfo)
    /// Every stream, answering `LIST_STREAMS`.
    case streamList([StreamInfo])
    /// One page of the streams, by name, answering `LIST_STREAMS_PAGE`; `more` says streams named
    /// after the last one remain. Version 2.
    case streamPage(streams: [StreamInfo], more: Bool)
    /// What a truncation removed (or would remove, in a dry run) and the first sequence left.
    case truncated(removed: UInt64, firstSequence: UInt64)
    /// A request that needs no other answer succeeded.
    case ok
    /// Daemon-wide figures, answering `GET_STATS`.
    case stats(DaemonStats)
    /// What the integrity check found, answering `VERIFY`.
    case verifyReport(VerifyResult)
    /// What a compaction gave back, answering `COMPACT`. Version 3.
    case compacted(Compaction)
    /// Events for a member of a durable consumer, with their delivery counts. Version 4.
    case deliveries(subscriptionID: UInt32, deliveries: [WireDelivery])
    /// One consumer, answering `ADD_CONSUMER`, `GET_CONSUMER_INFO` or `RESET_CONSUMER`. Version 4.
    case consumerInfo(ConsumerInfo)
    /// A stream's consumers, by name, answering `LIST_CONSUMERS`. Version 4.
    case consumerList([ConsumerInfo])
    /// A request failed, or the connection is being closed (codes below 10).
    case error(code: ErrorCode, message: String)

    /// The sequence one published event got.
    public struct PublishedEntry: Sendable, Hashable {
        /// The sequence the event got (the original one, for a duplicate).
        public var sequence: UInt64
        /// Whether the event had been stored before under the same message id.
        public var duplicate: Bool

        /// An entry for `sequence`.
        public init(sequence: UInt64, duplicate: Bool = false) {
            self.sequence = sequence
            self.duplicate = duplicate
        }
    }
}

extension ServerMessage {
    /// The figures of `COMPACTED`: the database file and its write-ahead log before and after.
    public struct Compaction: Sendable, Hashable {
        /// Bytes of the database file and its WAL before.
        public var bytesBefore: UInt64
        /// Bytes of the database file and its WAL after.
        public var bytesAfter: UInt64
        /// Whether the database was rewritten whole (a file made before incremental reclaiming).
        public var rewrote: Bool
        /// How long it took, in milliseconds.
        public var milliseconds: UInt64

        /// Bytes given back (0 when the files grew meanwhile).
        public var reclaimedBytes: UInt64 { bytesBefore > bytesAfter ? bytesBefore - bytesAfter : 0 }

        /// The figures with these values.
        public init(bytesBefore: UInt64, bytesAfter: UInt64, rewrote: Bool, milliseconds: UInt64) {
            self.bytesBefore = bytesBefore
            self.bytesAfter = bytesAfter
            self.rewrote = rewrote
            self.milliseconds = milliseconds
        }
    }
}

/// Why a subscription ended.
public enum SubscriptionEndReason: UInt8, Sendable, Hashable {
    /// The client unsubscribed.
    case unsubscribed = 0
    /// The stream was deleted.
    case streamDeleted = 1
    /// The server is stopping.
    case serverShuttingDown = 2
    /// The subscription failed; the message says why.
    case error = 3
}
