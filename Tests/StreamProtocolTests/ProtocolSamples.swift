@testable import StreamProtocol

/// One of every message, with the fields that exercise each encoding.
enum ProtocolSamples {
    static let policy = StreamPolicy(capacity: .last(1000), maxBytes: 1 << 40, replay: .last(10))
    static let info = StreamInfo(
        name: "orders.eu-1", policy: policy, count: 3, firstSequence: 8, lastSequence: 10,
        firstTime: 1_700_000_000_000_000, lastTime: -1, storedBytes: 120, rawBytes: 300, subscribers: 2, state: .failed,
        publishRateMillis: 1_500)
    static let stats = DaemonStats(
        uptimeMilliseconds: 61_000, version: "0.1.0", databasePath: "/tmp/db ✓.sqlite", databaseBytes: 1 << 33, streams: 3,
        events: .max, storedBytes: 120, rawBytes: 300, connections: 2, subscriptions: .max, publishedSinceStart: 7,
        publishRateMillis: 0)

    static let consumerConfig = ConsumerConfig(start: .from(sequence: 5), ackWait: .milliseconds(1_500), maxDeliver: 4, maxPending: 64, deadLetter: "orders.dead")
    static let consumerInfo = ConsumerInfo(
        stream: "orders", name: "billing", config: consumerConfig, ackFloor: 9, nextSequence: 14, pending: 3, redelivered: 1, lag: 100, members: 2)

    static let clientMessages: [ClientMessage] = [
        .hello(minVersion: 1, maxVersion: 3, clientName: "tests ✓"),
        .ping(nonce: .max),
        .publish(.init(stream: "s", payload: [])),
        .publish(.init(stream: "orders", expectedLastSequence: 0, messageID: "m-1", payload: Array(0...255))),
        .publishBatch(.init(stream: "b", expectedLastSequence: 41, entries: [
            .init(payload: [1]), .init(messageID: "x", payload: []), .init(payload: Array(repeating: 7, count: 300)),
        ])),
        .publishBatch(.init(stream: "empty", entries: [])),
        .endStream(stream: "s", failure: nil, expectedLastSequence: nil),
        .endStream(stream: "s", failure: "broke ✗", expectedLastSequence: 0),
        .subscribe(.init(subscriptionID: 1, stream: "s", start: .streamDefault, credit: 64)),
        .subscribe(.init(subscriptionID: 2, stream: "s", start: .all, credit: 0)),
        .subscribe(.init(subscriptionID: 3, stream: "s", start: .last(5), credit: 1)),
        .subscribe(.init(subscriptionID: 4, stream: "s", start: .from(sequence: 1 << 63), credit: .max)),
        .subscribe(.init(subscriptionID: 5, stream: "s", start: .since(microseconds: -5), credit: 9)),
        .subscribe(.init(subscriptionID: .max, stream: "s", start: .newOnly, credit: 9)),
        .credit(subscriptionID: 7, credit: 100),
        .unsubscribe(subscriptionID: 7),
        .createStream(name: "a", policy: policy),
        .configureStream(name: "a", policy: StreamPolicy()),
        .getStreamInfo(name: "a"),
        .listStreams,
        .listStreamsPage(after: nil, limit: 0),
        .listStreamsPage(after: "a.b", limit: .max),
        .truncateStream(name: "a", truncation: .beforeSequence(10), dryRun: true),
        .truncateStream(name: "a", truncation: .keepLast(1), dryRun: false),
        .truncateStream(name: "a", truncation: .olderThan(microseconds: 99), dryRun: false),
        .deleteStream(name: "a"),
        .getStats,
        .verify(stream: nil),
        .verify(stream: "orders"),
        .compact,
        .consume(.init(subscriptionID: 9, stream: "orders", consumer: "billing", credit: 64)),
        .ack(stream: "orders", consumer: "billing", sequences: [1, 3, .max]),
        .ack(stream: "orders", consumer: "billing", sequences: []),
        .ackThrough(subscriptionID: 9, sequence: 40),
        .nack(stream: "orders", consumer: "billing", sequence: 3, delayMilliseconds: 2_500),
        .addConsumer(stream: "orders", name: "billing", config: consumerConfig),
        .addConsumer(stream: "orders", name: "audit", config: ConsumerConfig(start: .newOnly)),
        .getConsumerInfo(stream: "orders", name: "billing"),
        .listConsumers(stream: "orders"),
        .deleteConsumer(stream: "orders", name: "billing"),
        .resetConsumer(stream: "orders", name: "billing", sequence: 7),
    ]

    static let serverMessages: [ServerMessage] = [
        .welcome(version: 1, maxFrameLength: 16 << 20, maxSubscriptions: 256, serverName: "streamd"),
        .pong(nonce: 0),
        .published(sequence: 1, timestamp: 1_700_000_000_123_456, duplicate: false),
        .published(sequence: 5, timestamp: 0, duplicate: true),
        .publishedBatch(entries: [.init(sequence: 2), .init(sequence: 1, duplicate: true)], timestamp: 17),
        .subscribed(subscriptionID: 3, nextSequence: 11),
        .events(subscriptionID: 3, events: [
            WireEvent(sequence: 11, timestamp: 5, payload: [1, 2, 3]),
            WireEvent(sequence: 12, timestamp: 6, kind: .completed, payload: []),
            WireEvent(sequence: 13, timestamp: 7, kind: .failed, payload: Array("disk on fire".utf8)),
        ]),
        .events(subscriptionID: 4, events: []),
        .subscriptionEnded(subscriptionID: 3, reason: .serverShuttingDown, message: "bye"),
        .streamInfo(info),
        .streamList([info, StreamInfo(name: "empty", policy: StreamPolicy())]),
        .streamList([]),
        .streamPage(streams: [info], more: true),
        .streamPage(streams: [], more: false),
        .truncated(removed: 10, firstSequence: 0),
        .ok,
        .stats(stats),
        .verifyReport(VerifyResult(streams: 0, blocks: 0, events: 0, problems: [])),
        .verifyReport(VerifyResult(streams: 2, blocks: 9, events: 1_000, problems: [
            .init(stream: nil, sequences: nil, message: "SQLite quick_check: row 3 missing"),
            .init(stream: "orders", sequences: 5...5, message: "timestamp goes backwards"),
            .init(stream: "orders", sequences: nil, message: "catalog says 1 stored bytes, the blocks hold 2"),
        ])),
        .compacted(.init(bytesBefore: 18_874_368, bytesAfter: 1_835_008, rewrote: false, milliseconds: 96)),
        .compacted(.init(bytesBefore: 0, bytesAfter: .max, rewrote: true, milliseconds: 0)),
        .deliveries(subscriptionID: 9, deliveries: [
            WireDelivery(event: WireEvent(sequence: 11, timestamp: 5, payload: [1, 2, 3]), deliveries: 1),
            WireDelivery(event: WireEvent(sequence: 12, timestamp: 6, payload: []), deliveries: .max),
        ]),
        .deliveries(subscriptionID: 9, deliveries: []),
        .consumerInfo(consumerInfo),
        .consumerList([consumerInfo, ConsumerInfo(stream: "orders", name: "audit", config: ConsumerConfig(), ackFloor: 0, nextSequence: 1, pending: 0, redelivered: 0, lag: 0, members: 0)]),
        .consumerList([]),
        .error(code: .streamNotFound, message: "no stream named \"x\""),
        .error(code: ErrorCode(rawValue: 4242), message: ""),
    ]
}
