/// Server messages name themselves as the protocol document does, so an error that mentions one
/// ("expected STREAM_INFO, got a PONG frame") reads as a sentence rather than a dump of its fields.
extension ServerMessage: CustomStringConvertible {
    /// The message's name in schemas/protocol.md.
    public var wireName: String {
        switch self {
        case .welcome: "WELCOME"
        case .pong: "PONG"
        case .published: "PUBLISHED"
        case .publishedBatch: "PUBLISHED_BATCH"
        case .subscribed: "SUBSCRIBED"
        case .events: "EVENTS"
        case .subscriptionEnded: "SUBSCRIPTION_ENDED"
        case .streamInfo: "STREAM_INFO"
        case .streamList: "STREAM_LIST"
        case .streamPage: "STREAM_PAGE"
        case .truncated: "TRUNCATED"
        case .ok: "OK"
        case .stats: "STATS"
        case .verifyReport: "VERIFY_REPORT"
        case .compacted: "COMPACTED"
        case .deliveries: "DELIVERIES"
        case .consumerInfo: "CONSUMER_INFO"
        case .consumerList: "CONSUMER_LIST"
        case .error: "ERROR"
        }
    }

    public var description: String {
        switch self {
        case let .error(code, message): "an ERROR frame (\(code)): \(message)"
        case let .events(subscription, events): "an EVENTS frame of \(events.count) events for subscription \(subscription)"
        default: "\("AEIOU".contains(wireName.first ?? "A") ? "an" : "a") \(wireName) frame"
        }
    }
}

/// A reason reads as the clause it is: "the stream was deleted".
extension SubscriptionEndReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unsubscribed: "the client unsubscribed"
        case .streamDeleted: "the stream was deleted"
        case .serverShuttingDown: "the server is shutting down"
        case .error: "the subscription failed"
        }
    }
}
