/// A message the server sends to a client.
public enum ServerMessage: Sendable, Hashable {
    case welcome(version: UInt16, maxFrameLength: UInt32, maxSubscriptions: UInt32, serverName: String)
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
    case streamInfo(StreamInfo)
    case streamList([StreamInfo])
    case truncated(removed: UInt64, firstSequence: UInt64)
    case ok
    case error(code: ErrorCode, message: String)

    /// The sequence one published event got.
    public struct PublishedEntry: Sendable, Hashable {
        public var sequence: UInt64
        public var duplicate: Bool

        public init(sequence: UInt64, duplicate: Bool = false) {
            self.sequence = sequence
            self.duplicate = duplicate
        }
    }
}

/// Why a subscription ended.
public enum SubscriptionEndReason: UInt8, Sendable, Hashable {
    case unsubscribed = 0
    case streamDeleted = 1
    case serverShuttingDown = 2
    case error = 3
}
