import StreamProtocol
import Synchronization

/// What a subscription hears from the connection.
enum SubscriptionFeed: Sendable {
    /// Events in sequence order.
    case events([WireEvent])
    /// Events for a member of a durable consumer, with their delivery counts.
    case deliveries([WireDelivery])
    /// The server ended the subscription.
    case ended(SubscriptionEndReason, String)
    /// The `SUBSCRIBE` was refused, or the connection was lost.
    case failed(StreamClientError)
}

/// Matches the server's frames to the requests and subscriptions waiting for them.
///
/// Replies go to the handler registered under their request id (and are dropped when there is none,
/// e.g. the answer to an `UNSUBSCRIBE`); `EVENTS`, `DELIVERIES` and `SUBSCRIPTION_ENDED` go to the subscription of
/// their id. Once the connection is lost every waiter hears it, and later registrations fail at once.
///
/// Thread-safety: Sendable; the tables are under a mutex, and handlers are called outside it.
final class FrameRouter: Sendable {
    typealias ReplyHandler = @Sendable (Result<ServerMessage, StreamClientError>) -> Void
    typealias FeedHandler = @Sendable (SubscriptionFeed) -> Void

    private struct Tables {
        var nextRequestID: UInt32 = 1
        var nextSubscriptionID: UInt32 = 1
        var replies: [UInt32: ReplyHandler] = [:]
        var subscriptions: [UInt32: FeedHandler] = [:]
        var lost: StreamClientError?
    }

    private let tables = Mutex(Tables())
    /// The protocol version agreed in the handshake (the newest until then), in whose layouts frames
    /// are read and requests written.
    private let agreedVersion = Atomic<UInt16>(ProtocolVersions.newest)

    /// The protocol version agreed with the daemon.
    var protocolVersion: UInt16 { agreedVersion.load(ordering: .acquiring) }

    /// Reads and writes in `version`'s layouts from now on: called as `WELCOME` arrives, before the
    /// next frame is routed.
    func agree(on version: UInt16) { agreedVersion.store(version, ordering: .releasing) }

    /// The error the connection was lost with, if it was.
    var lostError: StreamClientError? { tables.withLock { $0.lost } }

    /// A fresh request id, with `handler` waiting for its reply; `nil` (handler not kept) once lost.
    func register(_ handler: ReplyHandler?) -> Result<UInt32, StreamClientError> {
        tables.withLock { tables in
            if let lost = tables.lost { return .failure(lost) }
            let id = tables.nextRequestID
            tables.nextRequestID = id == UInt32.max ? 1 : id + 1
            if let handler { tables.replies[id] = handler }
            return .success(id)
        }
    }

    /// Forgets the handler of a request whose frame could not be sent.
    func unregister(_ requestID: UInt32) -> ReplyHandler? {
        tables.withLock { $0.replies.removeValue(forKey: requestID) }
    }

    /// A fresh subscription id whose feed goes to `handler`.
    func addSubscription(_ handler: @escaping FeedHandler) -> Result<UInt32, StreamClientError> {
        tables.withLock { tables in
            if let lost = tables.lost { return .failure(lost) }
            var id = tables.nextSubscriptionID
            while tables.subscriptions[id] != nil || id == 0 { id &+= 1 }
            tables.nextSubscriptionID = id &+ 1
            tables.subscriptions[id] = handler
            return .success(id)
        }
    }

    /// Stops feeding a subscription; returns whether it was still live.
    @discardableResult
    func removeSubscription(_ id: UInt32) -> Bool {
        tables.withLock { $0.subscriptions.removeValue(forKey: id) != nil }
    }

    /// Delivers one frame from the server.
    func route(_ frame: Frame) {
        let message: ServerMessage
        do {
            message = try ServerMessage(frame, version: protocolVersion)
        } catch {
            lost(.protocolViolation("\(error)"))
            return
        }
        switch message {
        case let .events(subscriptionID, events):
            let handler = tables.withLock { $0.subscriptions[subscriptionID] }
            handler?(.events(events))
        case let .deliveries(subscriptionID, deliveries):
            let handler = tables.withLock { $0.subscriptions[subscriptionID] }
            handler?(.deliveries(deliveries))
        case let .subscriptionEnded(subscriptionID, reason, text):
            let handler = tables.withLock { $0.subscriptions.removeValue(forKey: subscriptionID) }
            handler?(.ended(reason, text))
            _ = tables.withLock { $0.replies.removeValue(forKey: frame.requestID) }
        case let .error(code, text) where frame.requestID == 0 || code.closesConnection:
            let handler = tables.withLock { $0.replies.removeValue(forKey: frame.requestID) }
            handler?(.failure(.server(code: code, message: text)))
            lost(.server(code: code, message: text))
        default:
            let handler = tables.withLock { $0.replies.removeValue(forKey: frame.requestID) }
            handler?(.success(message))
        }
    }

    /// Fails every waiting request and subscription with `error`; only the first call counts.
    func lost(_ error: StreamClientError) {
        let (replies, subscriptions) = tables.withLock { tables -> ([ReplyHandler], [FeedHandler]) in
            guard tables.lost == nil else { return ([], []) }
            tables.lost = error
            defer {
                tables.replies = [:]
                tables.subscriptions = [:]
            }
            return (Array(tables.replies.values), Array(tables.subscriptions.values))
        }
        for reply in replies { reply(.failure(error)) }
        for subscription in subscriptions { subscription(.failed(error)) }
    }
}
