import EventLog
import StreamProtocol

extension ConnectionSession {
    /// Attaches the connection to a durable consumer: `SUBSCRIBED` first (with the consumer's next
    /// sequence), then `DELIVERIES` as credit allows.
    func consume(_ request: ClientMessage.Consume, requestID: UInt32) throws {
        if let refusal = reserveSubscription(request.subscriptionID) { throw refusal }
        let consumer: ServedConsumer
        do {
            consumer = try hub.servedConsumer(request.consumer, of: request.stream, holdingPlace: true)
        } catch {
            _ = settleReservation(request.subscriptionID, with: nil)
            throw error
        }
        let member = ConsumerMember(
            id: request.subscriptionID, requestID: requestID, consumer: consumer,
            send: { [weak self] message, requestID in self?.send(message, requestID: requestID) },
            sendFrame: { [weak self] frame in self?.write(frame) },
            canSend: { [weak self] in self?.isOutputWritable ?? false },
            onEnded: { [weak self] member in self?.removeSubscription(member) })
        guard settleReservation(request.subscriptionID, with: member) else {
            consumer.givePlaceBack()
            return
        }
        send(.subscribed(subscriptionID: request.subscriptionID, nextSequence: consumer.nextSequence), requestID: requestID)
        if !consumer.attach(member, credit: request.credit) {
            member.end(reason: .error, message: "the consumer \"\(request.consumer)\" of stream \"\(request.stream)\" was deleted.", replyTo: requestID)
        }
    }

    /// Acknowledges for a member and returns; the `OK` follows once the acknowledgement is stored, in
    /// request order (see `OrderedReplies`).
    func acknowledgePipelined(_ message: ClientMessage, requestID: UInt32) {
        let ticket = pipelinedReplies.take()
        let answer: @Sendable ((any Error)?) -> Void = { error in
            let reply = error.map { ServerError.from($0).reply } ?? .ok
            self.pipelinedReplies.file(Self.encode(reply, requestID: requestID, version: self.protocolVersion), for: ticket, output: self.write)
        }
        do {
            switch message {
            case let .ack(stream, consumer, sequences):
                try hub.servedConsumer(consumer, of: stream).ack(sequences, stored: answer)
            case let .ackThrough(id, sequence):
                let member = try member(id)
                member.consumer.ack(through: sequence, heldBy: member, stored: answer)
            default:
                answer(ServerError(.internal, "a request that is no acknowledgement was handled as one."))
            }
        } catch {
            answer(error)
        }
    }

    /// The consumer membership with id `id` on this connection.
    private func member(_ id: UInt32) throws -> ConsumerMember {
        guard let member = subscription(id) as? ConsumerMember else {
            throw ServerError(.subscriptionNotFound, "no consumer membership with id \(id) on this connection; attach with CONSUME first.")
        }
        return member
    }
}

extension ClientMessage {
    /// Whether the message acknowledges events for a consumer member (answered once stored).
    var isAcknowledgement: Bool {
        switch self {
        case .ack, .ackThrough: true
        default: false
        }
    }
}
