extension ClientMessage: WireMessage {
    /// The type byte of `HELLO`, the one frame a connection may start with.
    public static let helloType = MessageType.hello

    /// Whether `type` is the type byte of a client message of some version (whatever its body).
    public static func isKnownType(_ type: UInt8) -> Bool {
        var nothing = WireReader([])
        do {
            _ = try readBody(type: type, from: &nothing)
        } catch ProtocolError.unknownMessageType {
            return false
        } catch {}
        return true
    }

    public var type: UInt8 {
        switch self {
        case .hello: MessageType.hello
        case .ping: MessageType.ping
        case .publish: MessageType.publish
        case .publishBatch: MessageType.publishBatch
        case .endStream: MessageType.endStream
        case .subscribe: MessageType.subscribe
        case .credit: MessageType.credit
        case .unsubscribe: MessageType.unsubscribe
        case .createStream: MessageType.createStream
        case .configureStream: MessageType.configureStream
        case .getStreamInfo: MessageType.getStreamInfo
        case .listStreams: MessageType.listStreams
        case .listStreamsPage: MessageType.listStreamsPage
        case .truncateStream: MessageType.truncateStream
        case .deleteStream: MessageType.deleteStream
        case .getStats: MessageType.getStats
        case .verify: MessageType.verify
        case .compact: MessageType.compact
        case .consume: MessageType.consume
        case .ack: MessageType.ack
        case .ackThrough: MessageType.ackThrough
        case .nack: MessageType.nack
        case .addConsumer: MessageType.addConsumer
        case .getConsumerInfo: MessageType.getConsumerInfo
        case .listConsumers: MessageType.listConsumers
        case .deleteConsumer: MessageType.deleteConsumer
        case .resetConsumer: MessageType.resetConsumer
        }
    }

    public var payloadSizeHint: Int {
        switch self {
        case let .publish(publish): publish.payload.count
        case let .publishBatch(batch): batch.entries.reduce(0) { $0 + $1.payload.count + 8 }
        default: 0
        }
    }

    public func writeBody(to writer: inout WireWriter) throws {
        switch self {
        case let .hello(minVersion, maxVersion, clientName):
            for byte in Self.magic { writer.write(byte) }
            writer.write(minVersion)
            writer.write(maxVersion)
            try writer.write(clientName, field: "client_name")
        case let .ping(nonce):
            writer.write(nonce)
        case let .publish(publish):
            try writer.write(publish.stream, field: "stream")
            writer.writeOptional(publish.expectedLastSequence) { $0.write($1) }
            try writer.writeOptional(publish.messageID) { try $0.write($1, field: "message_id") }
            try writer.write(bytes: publish.payload, field: "payload")
        case let .publishBatch(batch):
            try writer.write(batch.stream, field: "stream")
            writer.writeOptional(batch.expectedLastSequence) { $0.write($1) }
            writer.write(UInt32(batch.entries.count))
            for entry in batch.entries {
                try writer.writeOptional(entry.messageID) { try $0.write($1, field: "message_id") }
                try writer.write(bytes: entry.payload, field: "payload")
            }
        case let .endStream(stream, failure, expectedLastSequence):
            try writer.write(stream, field: "stream")
            writer.writeOptional(expectedLastSequence) { $0.write($1) }
            try writer.writeOptional(failure) { try $0.write($1, field: "failure") }
        case let .subscribe(subscribe):
            writer.write(subscribe.subscriptionID)
            try writer.write(subscribe.stream, field: "stream")
            subscribe.start.write(to: &writer)
            writer.write(subscribe.credit)
        case let .credit(subscriptionID, credit):
            writer.write(subscriptionID)
            writer.write(credit)
        case let .unsubscribe(subscriptionID):
            writer.write(subscriptionID)
        case let .createStream(name, policy), let .configureStream(name, policy):
            try writer.write(name, field: "stream")
            policy.write(to: &writer)
        case let .getStreamInfo(name), let .deleteStream(name):
            try writer.write(name, field: "stream")
        case .listStreams, .getStats, .compact:
            break
        case let .listStreamsPage(after, limit):
            try writer.writeOptional(after) { try $0.write($1, field: "after") }
            writer.write(limit)
        case let .verify(stream):
            try writer.writeOptional(stream) { try $0.write($1, field: "stream") }
        case let .truncateStream(name, truncation, dryRun):
            try writer.write(name, field: "stream")
            truncation.write(to: &writer)
            writer.write(dryRun)
        case let .consume(consume):
            writer.write(consume.subscriptionID)
            try writer.write(consume.stream, field: "stream")
            try writer.write(consume.consumer, field: "consumer")
            writer.write(consume.credit)
        case let .ack(stream, consumer, sequences):
            try writer.write(stream, field: "stream")
            try writer.write(consumer, field: "consumer")
            writer.write(UInt32(sequences.count))
            for sequence in sequences { writer.write(sequence) }
        case let .ackThrough(subscriptionID, sequence):
            writer.write(subscriptionID)
            writer.write(sequence)
        case let .nack(stream, consumer, sequence, delay):
            try writer.write(stream, field: "stream")
            try writer.write(consumer, field: "consumer")
            writer.write(sequence)
            writer.write(delay)
        case let .addConsumer(stream, name, config):
            try writer.write(stream, field: "stream")
            try writer.write(name, field: "consumer")
            try config.write(to: &writer)
        case let .getConsumerInfo(stream, name), let .deleteConsumer(stream, name):
            try writer.write(stream, field: "stream")
            try writer.write(name, field: "consumer")
        case let .listConsumers(stream):
            try writer.write(stream, field: "stream")
        case let .resetConsumer(stream, name, sequence):
            try writer.write(stream, field: "stream")
            try writer.write(name, field: "consumer")
            writer.write(sequence)
        }
    }

    public static func readBody(type: UInt8, from reader: inout WireReader) throws -> ClientMessage {
        switch type {
        case MessageType.hello:
            var magic: [UInt8] = []
            for _ in 0..<4 { magic.append(try reader.read(UInt8.self, "magic")) }
            guard magic == Self.magic else {
                throw ProtocolError.malformed("HELLO does not start with the magic bytes \"STRD\": this is not a streamd client")
            }
            return .hello(
                minVersion: try reader.read(UInt16.self, "min_version"),
                maxVersion: try reader.read(UInt16.self, "max_version"),
                clientName: try reader.read(String.self, "client_name"))
        case MessageType.ping:
            return .ping(nonce: try reader.read(UInt64.self, "nonce"))
        case MessageType.publish:
            return .publish(try PublishBody(reading: &reader).message())
        case MessageType.publishBatch:
            let stream = try reader.read(String.self, "stream")
            let expected = try reader.readOptional("expected_last_sequence") { try $0.read(UInt64.self, "expected_last_sequence") }
            let count = try reader.read(UInt32.self, "count")
            var entries: [PublishBatch.Entry] = []
            for _ in 0..<count {
                entries.append(PublishBatch.Entry(
                    messageID: try reader.readOptional("message_id") { try $0.read(String.self, "message_id") },
                    payload: try reader.readBytes("payload")))
            }
            return .publishBatch(PublishBatch(stream: stream, expectedLastSequence: expected, entries: entries))
        case MessageType.endStream:
            let stream = try reader.read(String.self, "stream")
            let expected = try reader.readOptional("expected_last_sequence") { try $0.read(UInt64.self, "expected_last_sequence") }
            let failure = try reader.readOptional("failure") { try $0.read(String.self, "failure") }
            return .endStream(stream: stream, failure: failure, expectedLastSequence: expected)
        case MessageType.subscribe:
            return .subscribe(Subscribe(
                subscriptionID: try reader.read(UInt32.self, "subscription_id"),
                stream: try reader.read(String.self, "stream"),
                start: try StartPosition(from: &reader, "start"),
                credit: try reader.read(UInt32.self, "credit")))
        case MessageType.credit:
            return .credit(
                subscriptionID: try reader.read(UInt32.self, "subscription_id"),
                credit: try reader.read(UInt32.self, "credit"))
        case MessageType.unsubscribe:
            return .unsubscribe(subscriptionID: try reader.read(UInt32.self, "subscription_id"))
        case MessageType.createStream:
            return .createStream(name: try reader.read(String.self, "stream"), policy: try StreamPolicy(from: &reader))
        case MessageType.configureStream:
            return .configureStream(name: try reader.read(String.self, "stream"), policy: try StreamPolicy(from: &reader))
        case MessageType.getStreamInfo:
            return .getStreamInfo(name: try reader.read(String.self, "stream"))
        case MessageType.listStreams:
            return .listStreams
        case MessageType.listStreamsPage:
            return .listStreamsPage(
                after: try reader.readOptional("after") { try $0.read(String.self, "after") },
                limit: try reader.read(UInt32.self, "limit"))
        case MessageType.truncateStream:
            return .truncateStream(
                name: try reader.read(String.self, "stream"),
                truncation: try Truncation(from: &reader),
                dryRun: try reader.read(Bool.self, "dry_run"))
        case MessageType.deleteStream:
            return .deleteStream(name: try reader.read(String.self, "stream"))
        case MessageType.getStats:
            return .getStats
        case MessageType.verify:
            return .verify(stream: try reader.readOptional("stream") { try $0.read(String.self, "stream") })
        case MessageType.compact:
            return .compact
        case MessageType.consume:
            return .consume(Consume(
                subscriptionID: try reader.read(UInt32.self, "subscription_id"), stream: try reader.read(String.self, "stream"),
                consumer: try reader.read(String.self, "consumer"), credit: try reader.read(UInt32.self, "credit")))
        case MessageType.ack:
            let stream = try reader.read(String.self, "stream")
            let consumer = try reader.read(String.self, "consumer")
            let count = try reader.read(UInt32.self, "count")
            // Each sequence takes 8 bytes: a count the body cannot hold is malformed before anything is reserved.
            guard Int(count) * 8 <= reader.remaining else {
                throw ProtocolError.malformed("ACK counts \(count) sequences but its body holds \(reader.remaining / 8)")
            }
            var sequences: [UInt64] = []
            sequences.reserveCapacity(Int(count))
            for _ in 0..<count { sequences.append(try reader.read(UInt64.self, "sequence")) }
            return .ack(stream: stream, consumer: consumer, sequences: sequences)
        case MessageType.ackThrough:
            return .ackThrough(subscriptionID: try reader.read(UInt32.self, "subscription_id"), sequence: try reader.read(UInt64.self, "sequence"))
        case MessageType.nack:
            return .nack(
                stream: try reader.read(String.self, "stream"), consumer: try reader.read(String.self, "consumer"),
                sequence: try reader.read(UInt64.self, "sequence"), delayMilliseconds: try reader.read(UInt64.self, "delay_ms"))
        case MessageType.addConsumer:
            return .addConsumer(
                stream: try reader.read(String.self, "stream"), name: try reader.read(String.self, "consumer"), config: try ConsumerConfig(from: &reader))
        case MessageType.getConsumerInfo:
            return .getConsumerInfo(stream: try reader.read(String.self, "stream"), name: try reader.read(String.self, "consumer"))
        case MessageType.listConsumers:
            return .listConsumers(stream: try reader.read(String.self, "stream"))
        case MessageType.deleteConsumer:
            return .deleteConsumer(stream: try reader.read(String.self, "stream"), name: try reader.read(String.self, "consumer"))
        case MessageType.resetConsumer:
            return .resetConsumer(
                stream: try reader.read(String.self, "stream"), name: try reader.read(String.self, "consumer"),
                sequence: try reader.read(UInt64.self, "sequence"))
        default:
            throw ProtocolError.unknownMessageType(type)
        }
    }
}
