extension ServerMessage: WireMessage {
    public var type: UInt8 {
        switch self {
        case .welcome: MessageType.welcome
        case .pong: MessageType.pong
        case .published: MessageType.published
        case .publishedBatch: MessageType.publishedBatch
        case .subscribed: MessageType.subscribed
        case .events: MessageType.events
        case .subscriptionEnded: MessageType.subscriptionEnded
        case .streamInfo: MessageType.streamInfo
        case .streamList: MessageType.streamList
        case .streamPage: MessageType.streamPage
        case .truncated: MessageType.truncated
        case .ok: MessageType.ok
        case .stats: MessageType.stats
        case .verifyReport: MessageType.verifyReport
        case .compacted: MessageType.compacted
        case .deliveries: MessageType.deliveries
        case .consumerInfo: MessageType.consumerInfo
        case .consumerList: MessageType.consumerList
        case .error: MessageType.error
        }
    }

    public var payloadSizeHint: Int {
        switch self {
        case let .events(_, events): events.reduce(0) { $0 + $1.payload.count + 21 }
        case let .deliveries(_, deliveries): deliveries.reduce(0) { $0 + $1.event.payload.count + 25 }
        default: 0
        }
    }

    public func writeBody(to writer: inout WireWriter) throws {
        switch self {
        case let .welcome(version, maxFrameLength, maxSubscriptions, serverName):
            writer.write(version)
            writer.write(maxFrameLength)
            writer.write(maxSubscriptions)
            try writer.write(serverName, field: "server_name")
        case let .pong(nonce):
            writer.write(nonce)
        case let .published(sequence, timestamp, duplicate):
            writer.write(sequence)
            writer.write(timestamp)
            writer.write(duplicate)
        case let .publishedBatch(entries, timestamp):
            writer.write(UInt32(entries.count))
            for entry in entries {
                writer.write(entry.sequence)
                writer.write(entry.duplicate)
            }
            writer.write(timestamp)
        case let .subscribed(subscriptionID, nextSequence):
            writer.write(subscriptionID)
            writer.write(nextSequence)
        case let .events(subscriptionID, events):
            writer.write(subscriptionID)
            writer.write(UInt32(events.count))
            for event in events { try event.write(to: &writer) }
        case let .subscriptionEnded(subscriptionID, reason, message):
            writer.write(subscriptionID)
            writer.write(reason.rawValue)
            try writer.write(message, field: "message")
        case let .streamInfo(info):
            try info.write(to: &writer)
        case let .streamList(infos):
            writer.write(UInt32(infos.count))
            for info in infos { try info.write(to: &writer) }
        case let .streamPage(infos, more):
            writer.write(UInt32(infos.count))
            for info in infos { try info.write(to: &writer) }
            writer.write(more)
        case let .truncated(removed, firstSequence):
            writer.write(removed)
            writer.write(firstSequence)
        case .ok:
            break
        case let .stats(stats):
            try stats.write(to: &writer)
        case let .verifyReport(result):
            try result.write(to: &writer)
        case let .compacted(compaction):
            writer.write(compaction.bytesBefore)
            writer.write(compaction.bytesAfter)
            writer.write(compaction.rewrote)
            writer.write(compaction.milliseconds)
        case let .deliveries(subscriptionID, deliveries):
            writer.write(subscriptionID)
            writer.write(UInt32(deliveries.count))
            for delivery in deliveries {
                try delivery.event.write(to: &writer)
                writer.write(delivery.deliveries)
            }
        case let .consumerInfo(info):
            try info.write(to: &writer)
        case let .consumerList(infos):
            writer.write(UInt32(infos.count))
            for info in infos { try info.write(to: &writer) }
        case let .error(code, message):
            writer.write(code.rawValue)
            // An error message is never worth failing the reply over: cut it to fit its field.
            try writer.write(String(decoding: message.utf8.prefix(65_000), as: UTF8.self), field: "message")
        }
    }

    public static func readBody(type: UInt8, from reader: inout WireReader) throws -> ServerMessage {
        switch type {
        case MessageType.welcome:
            return .welcome(
                version: try reader.read(UInt16.self, "version"),
                maxFrameLength: try reader.read(UInt32.self, "max_frame_length"),
                maxSubscriptions: try reader.read(UInt32.self, "max_subscriptions"),
                serverName: try reader.read(String.self, "server_name"))
        case MessageType.pong:
            return .pong(nonce: try reader.read(UInt64.self, "nonce"))
        case MessageType.published:
            return .published(
                sequence: try reader.read(UInt64.self, "sequence"),
                timestamp: try reader.read(Int64.self, "timestamp"),
                duplicate: try reader.read(Bool.self, "duplicate"))
        case MessageType.publishedBatch:
            let count = try reader.read(UInt32.self, "count")
            var entries: [PublishedEntry] = []
            for _ in 0..<count {
                entries.append(PublishedEntry(
                    sequence: try reader.read(UInt64.self, "sequence"),
                    duplicate: try reader.read(Bool.self, "duplicate")))
            }
            return .publishedBatch(entries: entries, timestamp: try reader.read(Int64.self, "timestamp"))
        case MessageType.subscribed:
            return .subscribed(
                subscriptionID: try reader.read(UInt32.self, "subscription_id"),
                nextSequence: try reader.read(UInt64.self, "next_sequence"))
        case MessageType.events:
            let subscriptionID = try reader.read(UInt32.self, "subscription_id")
            let count = try reader.read(UInt32.self, "count")
            var events: [WireEvent] = []
            for _ in 0..<count { events.append(try WireEvent(from: &reader)) }
            return .events(subscriptionID: subscriptionID, events: events)
        case MessageType.subscriptionEnded:
            let subscriptionID = try reader.read(UInt32.self, "subscription_id")
            let rawReason = try reader.read(UInt8.self, "reason")
            guard let reason = SubscriptionEndReason(rawValue: rawReason) else {
                throw ProtocolError.malformed("reason is \(rawReason), but must be 0...3")
            }
            return .subscriptionEnded(subscriptionID: subscriptionID, reason: reason, message: try reader.read(String.self, "message"))
        case MessageType.streamInfo:
            return .streamInfo(try StreamInfo(from: &reader))
        case MessageType.streamList:
            let count = try reader.read(UInt32.self, "count")
            var infos: [StreamInfo] = []
            for _ in 0..<count { infos.append(try StreamInfo(from: &reader)) }
            return .streamList(infos)
        case MessageType.streamPage:
            let count = try reader.read(UInt32.self, "count")
            var infos: [StreamInfo] = []
            for _ in 0..<count { infos.append(try StreamInfo(from: &reader)) }
            return .streamPage(streams: infos, more: try reader.read(Bool.self, "more"))
        case MessageType.truncated:
            return .truncated(
                removed: try reader.read(UInt64.self, "removed"),
                firstSequence: try reader.read(UInt64.self, "first_sequence"))
        case MessageType.ok:
            return .ok
        case MessageType.stats:
            return .stats(try DaemonStats(from: &reader))
        case MessageType.verifyReport:
            return .verifyReport(try VerifyResult(from: &reader))
        case MessageType.compacted:
            return .compacted(ServerMessage.Compaction(
                bytesBefore: try reader.read(UInt64.self, "bytes_before"),
                bytesAfter: try reader.read(UInt64.self, "bytes_after"),
                rewrote: try reader.read(Bool.self, "rewrote"),
                milliseconds: try reader.read(UInt64.self, "duration_ms")))
        case MessageType.deliveries:
            let subscriptionID = try reader.read(UInt32.self, "subscription_id")
            let count = try reader.read(UInt32.self, "count")
            var deliveries: [WireDelivery] = []
            for _ in 0..<count {
                let event = try WireEvent(from: &reader)
                deliveries.append(WireDelivery(event: event, deliveries: try reader.read(UInt32.self, "deliveries")))
            }
            return .deliveries(subscriptionID: subscriptionID, deliveries: deliveries)
        case MessageType.consumerInfo:
            return .consumerInfo(try ConsumerInfo(from: &reader))
        case MessageType.consumerList:
            let count = try reader.read(UInt32.self, "count")
            var infos: [ConsumerInfo] = []
            for _ in 0..<count { infos.append(try ConsumerInfo(from: &reader)) }
            return .consumerList(infos)
        case MessageType.error:
            return .error(
                code: ErrorCode(rawValue: try reader.read(UInt16.self, "code")),
                message: try reader.read(String.self, "message"))
        default:
            throw ProtocolError.unknownMessageType(type)
        }
    }
}
