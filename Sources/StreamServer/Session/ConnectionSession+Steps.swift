import StreamProtocol

extension ConnectionSession {
    /// One thing to do for the client, decoded from its frames, in arrival order.
    enum Step: Sendable {
        /// A request for the hub.
        case handle(ClientMessage, requestID: UInt32)
        /// Pipelined `PUBLISH` requests that share one commit.
        case publish(PublishRun)
        /// A reply the connection state decided on its own (`WELCOME`, a handshake error).
        case send(ServerMessage, requestID: UInt32)
        /// A fatal error: end the subscriptions, send it, write nothing more.
        case closeThenSend(ServerMessage, requestID: UInt32)
    }

    /// Does every step, in order. While the client does not read its replies (the output is backed
    /// up) the rest waits, with what arrives later, until `resumeHeldRequests`: a client cannot make
    /// the daemon hold the replies of everything it sent (a small request may have a large reply).
    func run(_ steps: ArraySlice<Step>) {
        if heldBack.withLock({ held in
            guard !held.isEmpty else { return false }
            held += steps
            return true
        }) { return }
        for (index, step) in zip(steps.indices, steps) {
            if isOutputBackedUp() {
                heldBack.withLock { $0 = steps[index...] }
                return
            }
            // A client that pipelines faster than the log commits is held here, on its own queue,
            // which in turn stops reading its socket: the daemon holds a bounded amount of its data.
            if pipelinedReplies.bytesInFlight >= hub.limits.maximumPipelinedBytes { pipelinedReplies.waitUntilAnswered() }
            if access != nil, !mayRunQuickly(step) {
                // A refusal is answered in order, after the publishes before it.
                pipelinedReplies.waitUntilAnswered()
                if refuseIfNotAllowed(step) { continue }
            }
            auditIfPublishCreates(step)
            if runPipelined(step) || addCredit(step) { continue }
            // Anything else is answered after the pipelined publishes before it.
            pipelinedReplies.waitUntilAnswered()
            switch step {
            case let .handle(message, requestID): handle(message, requestID: requestID)
            case let .publish(run): handlePublishes(run)
            case let .send(message, requestID): send(message, requestID: requestID)
            case let .closeThenSend(message, requestID):
                endSubscriptions()
                send(message, requestID: requestID)
                silenced.store(true, ordering: .releasing)
            }
        }
    }

    /// Handles the requests held back while the output was backed up (see `run`); on the
    /// connection's queue, once it is not.
    func resumeHeldRequests() {
        let held = heldBack.withLock { held in
            defer { held = [] }
            return held
        }
        if !held.isEmpty { run(held) }
    }

    /// Whether requests wait for the client to read its replies.
    var holdsRequests: Bool { heldBack.withLock { !$0.isEmpty } }

    /// Does the steps that cannot wait, in order, and returns how many it did: it stops at the first
    /// that could wait (for a commit, a read, or the replies of earlier publishes), and does none
    /// while the output is backed up or requests are held back.
    func runWhileQuick(_ steps: [Step]) -> Int {
        var index = 0
        guard !holdsRequests else { return 0 }
        while index < steps.count, pipelinedReplies.bytesInFlight < hub.limits.maximumPipelinedBytes, !isOutputBackedUp() {
            // What the rules must look at closely (or refuse) is left to the queue.
            guard mayRunQuickly(steps[index]) else { return index }
            if !addCredit(steps[index]), !runPipelined(steps[index], onlyToKnownStreams: true) {
                guard pipelinedReplies.isIdle else { return index }
                switch steps[index] {
                case let .handle(.ping(nonce), requestID): send(.pong(nonce: nonce), requestID: requestID)
                case let .send(message, requestID): send(message, requestID: requestID)
                default: return index
                }
            }
            index += 1
        }
        return index
    }

    /// Hands `step` to the log without waiting and returns true, if it is publishes that need no
    /// de-duplication nor condition. With `onlyToKnownStreams`, publishes that would first have to
    /// create their stream (and wait for that) are left alone too.
    private func runPipelined(_ step: Step, onlyToKnownStreams: Bool = false) -> Bool {
        func allowed(_ stream: String) -> Bool { !onlyToKnownStreams || hub.isKnownToExist(stream) }
        switch step {
        case let .publish(run) where run.isPipelinable && allowed(run.stream):
            publishPipelined(run)
            return true
        case let .handle(.publishBatch(batch), requestID)
        where batch.isPipelinable && batch.entries.count <= hub.maximumBatchEntries && allowed(batch.stream):
            publishPipelined(batch, requestID: requestID)
            return true
        case let .handle(message, requestID) where message.isAcknowledgement:
            acknowledgePipelined(message, requestID: requestID)
            return true
        default:
            return false
        }
    }
}

extension ConnectionSession {
    /// Adds credit to a subscription of this connection and returns true, if `step` is that: answered
    /// by nothing, it need not wait for the replies before it. Credit for an id with no subscription
    /// is left to `handle`, whose error comes in order, after those replies.
    private func addCredit(_ step: Step) -> Bool {
        guard case let .handle(.credit(id, credit), _) = step, let subscription = subscription(id) else { return false }
        subscription.addCredit(credit)
        return true
    }
}
