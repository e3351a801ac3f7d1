import StreamProtocol

extension ConnectionSession {
    /// What a watchdog needs to know of the bytes received: whether HELLO was answered, how many bytes
    /// of an unfinished frame are buffered, and how many frames were decoded so far.
    struct InboundProgress: Sendable, Equatable {
        var greeted: Bool
        var bufferedBytes: Int
        var framesDecoded: Int
    }

    /// The session's inbound progress now.
    var inboundProgress: InboundProgress {
        inbound.withLock { InboundProgress(greeted: $0.isGreeted, bufferedBytes: $0.bufferedByteCount, framesDecoded: $0.framesDecoded) }
    }

    /// Why a limit closed the session, if one did (for the daemon's log).
    var refusal: String? { inbound.withLock { $0.refusal } }

    /// The `ERROR` a protocol error closed the session with, if one did (for the daemon's log).
    var protocolFailure: (code: ErrorCode, message: String)? { inbound.withLock { $0.protocolFailure } }

    /// Whether a request is still being answered: a subscription is live or publishes await their commit.
    var hasWorkInProgress: Bool { subscriptionCount > 0 || !pipelinedReplies.isIdle || holdsRequests }

    /// Closes the session for a limit (a timeout): ends its subscriptions, sends `ERROR
    /// limit_exceeded` with `message` as its last frame and writes nothing more. Does nothing if the
    /// session is closed already. Never waits, so an event loop may call it.
    func refuse(_ message: String) {
        guard inbound.withLock({ $0.refuse(message) }) != nil else { return }
        endSubscriptions()
        send(.error(code: .limitExceeded, message: message), requestID: 0)
        silenced.store(true, ordering: .releasing)
    }
}
