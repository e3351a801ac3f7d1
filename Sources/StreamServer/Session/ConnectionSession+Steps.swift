import StreamProtocol

extension ConnectionSession {
    /// One thing to do for the client, decoded from its frames, in arrival order.
    enum Step: Sendable {
        /// A request for the hub.
        case handle(ClientMessage, requestID: UInt32)
        /// A reply the connection state decided on its own (`WELCOME`, a handshake error).
        case send(ServerMessage, requestID: UInt32)
        /// A fatal error: end the subscriptions, send it, write nothing more.
        case closeThenSend(ServerMessage, requestID: UInt32)
    }

    /// The most pipelined publishes merged into one commit.
    static let maximumPublishGroup = 1024

    /// Does every step, in order.
    func run(_ steps: ArraySlice<Step>) {
        var index = steps.startIndex
        while index < steps.endIndex {
            // A client that pipelines faster than the log commits is held here, on its own queue,
            // which in turn stops reading its socket: the daemon holds a bounded amount of its data.
            if pipelinedReplies.bytesInFlight >= hub.limits.maximumPipelinedBytes { pipelinedReplies.waitUntilAnswered() }
            let group = publishGroup(in: steps, from: index)
            if let taken = runPipelined(group, steps, at: index) {
                index += taken
                continue
            }
            // Anything else is answered after the pipelined publishes before it.
            pipelinedReplies.waitUntilAnswered()
            if group.count > 1 {
                handlePublishes(group)
                index += group.count
                continue
            }
            switch steps[index] {
            case let .handle(message, requestID): handle(message, requestID: requestID)
            case let .send(message, requestID): send(message, requestID: requestID)
            case let .closeThenSend(message, requestID):
                endSubscriptions()
                send(message, requestID: requestID)
                silenced.store(true, ordering: .releasing)
            }
            index += 1
        }
    }

    /// Does the steps that cannot wait, in order, and returns how many it did: it stops at the first
    /// that could wait (for a commit, a read, or the replies of earlier publishes).
    func runWhileQuick(_ steps: [Step]) -> Int {
        var index = 0
        while index < steps.count, pipelinedReplies.bytesInFlight < hub.limits.maximumPipelinedBytes {
            let group = publishGroup(in: steps[...], from: index)
            if let taken = runPipelined(group, steps[...], at: index, onlyToKnownStreams: true) {
                index += taken
                continue
            }
            guard pipelinedReplies.isIdle else { return index }
            switch steps[index] {
            case let .handle(.ping(nonce), requestID): send(.pong(nonce: nonce), requestID: requestID)
            case let .handle(message, requestID) where message.isCredit: handle(message, requestID: requestID)
            case let .send(message, requestID): send(message, requestID: requestID)
            default: return index
            }
            index += 1
        }
        return index
    }

    /// Hands the publishes at `index` (`group`, their `publishGroup`) to the log without waiting, if
    /// they need no de-duplication nor condition; returns how many steps that took, or nil if the step
    /// is something else. With `onlyToKnownStreams`, a publish that would first have to create its
    /// stream (and wait for that) is something else too.
    private func runPipelined(
        _ group: [(publish: ClientMessage.Publish, requestID: UInt32)], _ steps: ArraySlice<Step>, at index: Int,
        onlyToKnownStreams: Bool = false
    ) -> Int? {
        func allowed(_ stream: String) -> Bool { !onlyToKnownStreams || hub.isKnownToExist(stream) }
        if !group.isEmpty, group.allSatisfy({ $0.publish.messageID == nil }), allowed(group[0].publish.stream) {
            publishPipelined(group)
            return group.count
        }
        if case let .handle(.publishBatch(batch), requestID) = steps[index], batch.isPipelinable, allowed(batch.stream) {
            publishPipelined(batch, requestID: requestID)
            return 1
        }
        return nil
    }

    /// The pipelined `PUBLISH` requests from `start` on that can share one commit: consecutive, to one
    /// stream, without `expected_last_sequence` (which must be checked alone), and each small enough
    /// for the log (so one oversize event cannot fail its neighbours). Without message ids they are
    /// handed to the log without waiting for the commit; with some, they are de-duplicated first.
    private func publishGroup(in steps: ArraySlice<Step>, from start: Int) -> [(publish: ClientMessage.Publish, requestID: UInt32)] {
        let maximumBytes = hub.log.options.maximumEventBytes
        func groupable(_ step: Step) -> (publish: ClientMessage.Publish, requestID: UInt32)? {
            guard case let .handle(.publish(publish), requestID) = step, publish.expectedLastSequence == nil,
                publish.payload.count <= maximumBytes
            else { return nil }
            return (publish, requestID)
        }
        guard let first = groupable(steps[start]) else { return [] }
        var group = [first]
        var index = start + 1
        while index < steps.endIndex, group.count < Self.maximumPublishGroup, let next = groupable(steps[index]),
            next.publish.stream == first.publish.stream
        {
            group.append(next)
            index += 1
        }
        return group
    }
}

extension ClientMessage {
    fileprivate var isCredit: Bool {
        if case .credit = self { return true }
        return false
    }
}
