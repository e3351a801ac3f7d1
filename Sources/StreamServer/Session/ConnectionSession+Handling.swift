import EventLog
import StreamProtocol

extension ConnectionSession {
    /// Handles one request of an open connection and sends its reply.
    func handle(_ message: ClientMessage, requestID: UInt32) {
        do {
            if let reply = try reply(to: message, requestID: requestID) {
                send(reply, requestID: requestID)
            }
        } catch {
            send(ServerError.from(error).reply, requestID: requestID)
        }
    }

    /// The reply to `message`, or nil when the handler sent it itself (or none is due).
    private func reply(to message: ClientMessage, requestID: UInt32) throws -> ServerMessage? {
        switch message {
        case .hello:
            // The connection state answers HELLO; an open connection never dispatches it.
            return nil
        case let .ping(nonce):
            return .pong(nonce: nonce)
        case let .publish(publish):
            hub.metrics.publishRequests.increment()
            let outcome = try hub.publish(
                to: publish.stream, expectedLastSequence: publish.expectedLastSequence,
                [.init(messageID: publish.messageID, payload: publish.payload)])
            let entry = outcome.entries[0]
            return .published(sequence: entry.sequence, timestamp: outcome.timestamps[0], duplicate: entry.duplicate)
        case let .endStream(stream, failure, expectedLastSequence):
            let receipt = try hub.endStream(stream, failure: failure, expectedLastSequence: expectedLastSequence)
            return .published(sequence: receipt.lastSequence, timestamp: receipt.timestamp, duplicate: false)
        case let .publishBatch(batch):
            hub.metrics.publishRequests.increment()
            try hub.checkBatchSize(batch)
            let outcome = try hub.publish(
                to: batch.stream, expectedLastSequence: batch.expectedLastSequence,
                batch.entries.map { .init(messageID: $0.messageID, payload: $0.payload) })
            return .publishedBatch(entries: outcome.entries, timestamp: outcome.timestamp)
        case let .subscribe(subscribe):
            try self.subscribe(subscribe, requestID: requestID)
            return nil
        case let .credit(id, credit):
            guard let subscription = subscription(id) else { throw unknownSubscription(id) }
            subscription.addCredit(credit)
            return nil
        case let .unsubscribe(id):
            guard let subscription = subscription(id),
                subscription.end(reason: .unsubscribed, message: "unsubscribed", replyTo: requestID)
            else { throw unknownSubscription(id) }
            return nil
        case let .createStream(name, policy):
            let info = try hub.createStream(name, policy: policy, keepingWindow: speaksWithoutWindows)
            auditChange("create", stream: name, detail: info.policy.auditDetail)
            return .streamInfo(info)
        case let .configureStream(name, policy):
            let info = try hub.configureStream(name, policy: policy, keepingWindow: speaksWithoutWindows)
            auditChange("config", stream: name, detail: info.policy.auditDetail)
            return .streamInfo(info)
        case let .getStreamInfo(name):
            return .streamInfo(try hub.streamInfo(name))
        case .listStreams:
            return .streamList(try hub.listAllStreams(including: listedStreams()))
        case let .listStreamsPage(after, limit):
            let page = try hub.listStreams(after: after, limit: limit, including: listedStreams())
            return .streamPage(streams: page.streams, more: page.more)
        case let .truncateStream(name, truncation, dryRun):
            let result = try hub.truncate(name, truncation, dryRun: dryRun)
            if !dryRun { auditChange("truncate", stream: name, detail: "removed \(result.removed) events") }
            return .truncated(removed: result.removed, firstSequence: result.firstSequence)
        case let .deleteStream(name):
            try hub.deleteStream(name)
            auditChange("rm", stream: name)
            return .ok
        case .getStats:
            return .stats(try hub.stats())
        case let .verify(stream):
            return .verifyReport(hub.bounded(try hub.verify(stream)))
        case .compact:
            let compaction = try hub.compact()
            auditChange("compact", stream: nil, detail: "reclaimed \(compaction.reclaimedBytes) bytes")
            return .compacted(compaction)
        case let .consume(consume):
            try self.consume(consume, requestID: requestID)
            return nil
        case .ack, .ackThrough:
            acknowledgePipelined(message, requestID: requestID)
            return nil
        case let .nack(stream, consumer, sequence, delay):
            try hub.giveBack(sequence, of: consumer, on: stream, delayMilliseconds: delay)
            return .ok
        case let .addConsumer(stream, name, config):
            let info = try hub.addConsumer(name, to: stream, config: config)
            auditChange("consumer add", stream: stream, detail: "consumer \(name)")
            return .consumerInfo(info)
        case let .getConsumerInfo(stream, name):
            return .consumerInfo(try hub.consumerInfo(name, of: stream))
        case let .listConsumers(stream):
            return .consumerList(try hub.listConsumers(of: stream))
        case let .deleteConsumer(stream, name):
            try hub.deleteConsumer(name, of: stream)
            auditChange("consumer rm", stream: stream, detail: "consumer \(name)")
            return .ok
        case let .resetConsumer(stream, name, sequence):
            let info = try hub.resetConsumer(name, of: stream, to: sequence)
            auditChange("consumer reset", stream: stream, detail: "consumer \(name) to sequence \(sequence)")
            return .consumerInfo(info)
        }
    }

    /// Publishes a run of `PUBLISH` requests in one commit, answering each with its own `PUBLISHED`,
    /// in order; if the commit fails, each gets the same `ERROR`.
    func handlePublishes(_ run: PublishRun) {
        hub.metrics.publishRequests.increment(by: Int64(run.count))
        var frames = WireWriter(capacity: Self.publishedFrameLength * run.count)
        do {
            let outcome = try hub.publish(to: run.stream, expectedLastSequence: nil, run.submissions)
            for (index, requestID) in run.requestIDs.enumerated() {
                let entry = outcome.entries[index]
                Self.encode(.published(sequence: entry.sequence, timestamp: outcome.timestamps[index], duplicate: entry.duplicate), requestID: requestID, into: &frames)
            }
        } catch {
            let reply = ServerError.from(error).reply
            for requestID in run.requestIDs { Self.encode(reply, requestID: requestID, into: &frames) }
        }
        write(frames.bytes)
    }

    /// Hands a run of `PUBLISH` requests without message ids to the log as one append and returns;
    /// their `PUBLISHED` replies follow the commit, in request order (see `OrderedReplies`).
    func publishPipelined(_ run: PublishRun) {
        let requestIDs = run.requestIDs
        hub.metrics.publishRequests.increment(by: Int64(requestIDs.count))
        publishPipelined(to: run.stream, run.payloads) { outcome in
            var frames = WireWriter(capacity: Self.publishedFrameLength * requestIDs.count)
            switch outcome {
            case let .success(receipt):
                for (offset, requestID) in requestIDs.enumerated() {
                    let sequence = receipt.firstSequence + UInt64(offset)
                    Self.encode(.published(sequence: sequence, timestamp: receipt.timestamp, duplicate: false), requestID: requestID, into: &frames)
                }
            case let .failure(error):
                let reply = ServerError.from(error).reply
                for requestID in requestIDs { Self.encode(reply, requestID: requestID, into: &frames) }
            }
            return frames.bytes
        }
    }

    /// Hands a `PUBLISH_BATCH` without message ids or expected sequence to the log and returns; its
    /// `PUBLISHED_BATCH` follows the commit, in request order.
    func publishPipelined(_ batch: ClientMessage.PublishBatch, requestID: UInt32) {
        let count = batch.entries.count
        hub.metrics.publishRequests.increment()
        publishPipelined(to: batch.stream, batch.entries.map(\.payload)) { outcome in
            switch outcome {
            case let .success(receipt):
                let entries = (0..<UInt64(count)).map { ServerMessage.PublishedEntry(sequence: receipt.firstSequence + $0) }
                return Self.encode(.publishedBatch(entries: entries, timestamp: receipt.timestamp), requestID: requestID)
            case let .failure(error):
                return Self.encode(ServerError.from(error).reply, requestID: requestID)
            }
        }
    }

    /// What an event handed to the log holds besides its payload (its entry, its record, its
    /// reply), counted against the pipelining bound, so that events with empty payloads count too.
    static let bytesHeldPerEvent = 64

    private func publishPipelined(
        to stream: String, _ payloads: [[UInt8]],
        replies: @escaping @Sendable (Result<AppendReceipt, any Error>) -> [UInt8]
    ) {
        let ticket = pipelinedReplies.take(holding: payloads.reduce(0) { $0 + $1.count + Self.bytesHeldPerEvent })
        hub.publishUnconditionally(to: stream, payloads) { outcome in
            self.pipelinedReplies.file(replies(outcome), for: ticket, output: self.write)
        }
    }

    /// Opens a subscription: `SUBSCRIBED` first, then its events as credit allows.
    private func subscribe(_ request: ClientMessage.Subscribe, requestID: UInt32) throws {
        if let refusal = reserveSubscription(request.subscriptionID) { throw refusal }
        let subscription = Subscription(
            id: request.subscriptionID, requestID: requestID, stream: request.stream, hub: hub, owner: access?.identity,
            send: { [weak self] message, requestID in self?.send(message, requestID: requestID) },
            sendFrame: { [weak self] frame in self?.write(frame) },
            canSend: { [weak self] in self?.isOutputWritable ?? false },
            onEnded: { [weak self] subscription in self?.removeSubscription(subscription) })
        let next: UInt64
        do {
            next = try subscription.open(from: request.start, credit: request.credit)
        } catch {
            _ = settleReservation(request.subscriptionID, with: nil)
            throw error
        }
        guard settleReservation(request.subscriptionID, with: subscription) else {
            subscription.end(reason: .unsubscribed, message: "", replyTo: nil)
            return
        }
        send(.subscribed(subscriptionID: request.subscriptionID, nextSequence: next), requestID: requestID)
        subscription.activate()
    }

    /// Whether the client's policies have no de-duplication window (it agreed on a version older
    /// than 4), so a stream keeps the one it has (a missing stream gets the default).
    private var speaksWithoutWindows: Bool { protocolVersion < ProtocolVersions.deduplicationWindows }

    private func unknownSubscription(_ id: UInt32) -> ServerError {
        ServerError(.subscriptionNotFound, "no live subscription with id \(id) on this connection.")
    }
}

extension ClientMessage.PublishBatch {
    /// Whether the batch can be handed to the log without waiting: it has events, and needs neither
    /// de-duplication nor an expected last sequence.
    var isPipelinable: Bool {
        expectedLastSequence == nil && !entries.isEmpty && entries.allSatisfy { $0.messageID == nil }
    }
}
