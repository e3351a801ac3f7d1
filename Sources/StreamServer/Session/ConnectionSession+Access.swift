import EventLog
import StreamProtocol

extension ConnectionSession {
    /// What a request needs from the rules.
    private enum Need {
        /// Nothing: a ping, credit or unsubscribe (of the connection's own subscriptions), a reply.
        case nothing
        /// `right` on `stream`.
        case right(AccessRight, stream: String, operation: String)
        /// `publish` on `stream`, and `admin` as well when the publish would create it.
        case publishing(stream: String, operation: String)
        /// `right` on every stream (a rule with the pattern `*`): daemon-wide requests.
        case everywhere(AccessRight, what: String, operation: String)
        /// Any right on `stream`: its description, not its events.
        case anyRight(stream: String, operation: String)
        /// Any right on at least one stream pattern (listing, which then shows only those streams).
        case somewhere(what: String, operation: String)
        /// Every need listed (adding a consumer: `admin` on its stream, and publishing to its
        /// dead-letter stream, which the daemon does on the client's word).
        case all([Need])
    }

    /// Whether `step` may run on the event loop without asking the log: the client may do anything,
    /// or it is a publish to a stream known to exist that the rules allow, or it needs no right.
    func mayRunQuickly(_ step: Step) -> Bool {
        guard let access, !access.isUnrestricted else { return true }
        switch Self.need(of: step) {
        case .nothing: return true
        case let .publishing(stream, _):
            return hub.isKnownToExist(stream) && access.control.rules.allows(access.identity, .publish, on: stream)
        default: return false
        }
    }

    /// Answers `step` with `permission_denied` and returns true if the client may not do it; logs the
    /// refusal. A publish allowed to create its stream is logged as that creation.
    func refuseIfNotAllowed(_ step: Step) -> Bool {
        guard let access, !access.isUnrestricted else { return false }
        guard let refusal = refusal(of: Self.need(of: step), access: access) else { return false }
        refuse(step, refusal, access: access)
        return true
    }

    /// What the client is refused, with the right, stream and operation to log.
    private typealias Refusal = (right: AccessRight, stream: String?, operation: String, what: String)

    /// Why `need` is refused to the client, or nil when the rules allow it; a publish allowed to
    /// create its stream is logged as that creation.
    private func refusal(of need: Need, access: ConnectionAccess) -> Refusal? {
        let rules = access.control.rules
        let identity = access.identity
        let refusal: Refusal?
        switch need {
        case let .all(needs):
            refusal = needs.lazy.compactMap { self.refusal(of: $0, access: access) }.first
        case .nothing:
            refusal = nil
        case let .right(right, stream, operation):
            refusal = rules.allows(identity, right, on: stream) ? nil : (right, stream, operation, "\(right.refusedVerb) stream \(stream)")
        case let .publishing(stream, operation):
            if !rules.allows(identity, .publish, on: stream) {
                refusal = (.publish, stream, operation, "publish to stream \(stream)")
            } else if (try? StreamName.validate(stream)) == nil || streamExists(stream) {
                // A bad name is answered by the hub with invalid_stream_name, as for anyone.
                refusal = nil
            } else if rules.allows(identity, .admin, on: stream) {
                access.control.auditChange(identity, operation: "create", stream: stream, detail: "by publishing to the missing stream")
                refusal = nil
            } else {
                refusal = (.admin, stream, operation, "create stream \(stream) (publishing to a missing stream creates it, which needs the admin right; it has publish only)")
            }
        case let .everywhere(right, what, operation):
            refusal = rules.allowsOnEveryStream(identity, right) ? nil : (right, nil, operation, "\(what) (that needs \(right) on every stream, a rule with \"streams\": \"*\")")
        case let .anyRight(stream, operation):
            refusal = rules.allowsSomething(identity, on: stream) ? nil : (.read, stream, operation, "see stream \(stream) (any right on it shows its description)")
        case let .somewhere(what, operation):
            refusal = rules.allowsOnSomeStream(identity) ? nil : (.read, nil, operation, what)
        }
        return refusal
    }

    /// Answers `step` with `refusal`.
    private func refuse(_ step: Step, _ refusal: Refusal, access: ConnectionAccess) {
        let identity = access.identity
        access.control.auditRefusal(identity, right: refusal.right, stream: refusal.stream, operation: refusal.operation)
        let reply = ServerMessage.error(code: .permissionDenied, message: access.control.refusalMessage(identity, may: refusal.what))
        switch step {
        case let .publish(run):
            var frames = WireWriter(capacity: 128 * run.requestIDs.count)
            for requestID in run.requestIDs { Self.encode(reply, requestID: requestID, into: &frames) }
            write(frames.bytes)
        case let .handle(_, requestID):
            send(reply, requestID: requestID)
        case .send, .closeThenSend:
            break
        }
    }

    /// Which streams the client sees in a listing: those it has some right on (every one for a client
    /// that may do everything). Listings page over these alone, so a page is never empty while more follow.
    func listedStreams() -> @Sendable (String) -> Bool {
        guard let access, !access.isUnrestricted else { return { _ in true } }
        let rules = access.control.rules, identity = access.identity
        return { rules.allowsSomething(identity, on: $0) }
    }

    /// Ends, with `SUBSCRIPTION_ENDED` (reason: error), each live subscription to a stream the client
    /// may no longer read under the rules in force now (after a reload); logs each one.
    public func endSubscriptionsNoLongerAllowed() {
        guard let access, !access.isUnrestricted else { return }
        let rules = access.control.rules
        for subscription in liveSubscriptions() where !rules.allows(access.identity, .read, on: subscription.stream) {
            let message = access.control.refusalMessage(access.identity, may: "read stream \(subscription.stream) any more (the access file was reloaded)")
            if subscription.end(reason: .error, message: message, replyTo: subscription.requestID) {
                access.control.auditRefusal(access.identity, right: .read, stream: subscription.stream, operation: "subscription (ended by a reload)")
            }
        }
    }

    /// Audits a publish by a client that may do everything (the daemon's own user, root) that is about
    /// to create its stream, as `refuseIfNotAllowed` does for the others: `streamctl import` and
    /// `replay --to` into a new stream, say. Costs a lookup of a known stream otherwise.
    func auditIfPublishCreates(_ step: Step) {
        guard let access, access.isUnrestricted, case let .publishing(stream, _) = Self.need(of: step),
            !hub.isKnownToExist(stream), (try? StreamName.validate(stream)) != nil, ((try? hub.log.streamInfo(stream)) ?? nil) == nil
        else { return }
        access.control.auditChange(access.identity, operation: "create", stream: stream, detail: "by publishing to the missing stream")
    }

    /// Logs an administrative change the client made (for every client, the daemon's own user included).
    func auditChange(_ operation: String, stream: String?, detail: String? = nil) {
        guard let access else { return }
        access.control.auditChange(access.identity, operation: operation, stream: stream, detail: detail)
    }

    private func streamExists(_ stream: String) -> Bool {
        if hub.isKnownToExist(stream) { return true }
        return ((try? hub.log.streamInfo(stream)) ?? nil) != nil
    }

    private static func need(of step: Step) -> Need {
        switch step {
        case let .publish(run): return .publishing(stream: run.stream, operation: "publish")
        case .send, .closeThenSend: return .nothing
        case let .handle(message, _):
            switch message {
            case .hello, .ping, .credit, .unsubscribe: return .nothing
            case let .publish(publish): return .publishing(stream: publish.stream, operation: "publish")
            case let .publishBatch(batch): return .publishing(stream: batch.stream, operation: "publish batch")
            case let .endStream(stream, _, _): return .publishing(stream: stream, operation: "end stream")
            case let .subscribe(subscribe): return .right(.read, stream: subscribe.stream, operation: "subscribe")
            case let .getStreamInfo(name): return .anyRight(stream: name, operation: "stream info")
            case .listStreams, .listStreamsPage:
                return .somewhere(what: "list streams (no rule grants it any right)", operation: "list streams")
            case let .createStream(name, _): return .right(.admin, stream: name, operation: "create")
            case let .configureStream(name, _): return .right(.admin, stream: name, operation: "config")
            case let .truncateStream(name, _, _): return .right(.admin, stream: name, operation: "truncate")
            case let .deleteStream(name): return .right(.admin, stream: name, operation: "rm")
            case .getStats: return .everywhere(.read, what: "read the daemon's statistics", operation: "stats")
            case let .verify(stream?): return .right(.admin, stream: stream, operation: "verify")
            case .verify(nil): return .everywhere(.admin, what: "verify the whole log", operation: "verify")
            case .compact: return .everywhere(.admin, what: "compact the whole log", operation: "compact")
            case .ackThrough: return .nothing
            case let .ack(stream, _, _): return .right(.read, stream: stream, operation: "ack")
            case let .nack(stream, _, _, _): return .right(.read, stream: stream, operation: "nack")
            case let .consume(consume): return .right(.read, stream: consume.stream, operation: "consume")
            case let .getConsumerInfo(stream, _), let .listConsumers(stream): return .anyRight(stream: stream, operation: "consumer info")
            case let .addConsumer(stream, _, config):
                let own = Need.right(.admin, stream: stream, operation: "consumer add")
                guard let deadLetter = config.deadLetter else { return own }
                return .all([own, .publishing(stream: deadLetter, operation: "consumer add (dead-letter stream)")])
            case let .deleteConsumer(stream, _): return .right(.admin, stream: stream, operation: "consumer rm")
            case let .resetConsumer(stream, _, _): return .right(.admin, stream: stream, operation: "consumer reset")
            }
        }
    }
}
