import StreamProtocol

/// What a connection holds under a subscription id: a subscription to a stream, or a membership of a
/// durable consumer. Both take credit, pause while the connection's output is backed up, and end
/// with `SUBSCRIPTION_ENDED`.
///
/// Thread-safety: conforming types are Sendable and every method may be called from any thread.
protocol LiveSubscription: AnyObject, Sendable {
    /// The client's id for it.
    var id: UInt32 { get }
    /// The request its frames answer.
    var requestID: UInt32 { get }
    /// The stream it reads.
    var stream: String { get }
    /// Adds `credit` events the client is ready for.
    func addCredit(_ credit: UInt32)
    /// Starts sending again after the connection's output drained.
    func resume()
    /// Whether it ended (`end`, or its stream or consumer went away).
    var isEnded: Bool { get }
    /// Ends it: no frame of it follows, except `SUBSCRIPTION_ENDED` answering `replyTo` when given.
    /// Returns false if it had ended already.
    @discardableResult
    func end(reason: SubscriptionEndReason, message: String, replyTo requestID: UInt32?) -> Bool
}

extension Subscription: LiveSubscription {}
