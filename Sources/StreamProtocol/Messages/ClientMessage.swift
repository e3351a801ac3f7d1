/// A message a client sends to the server.
public enum ClientMessage: Sendable, Hashable {
    /// The protocol's magic bytes at the start of `HELLO`: "STRD".
    public static let magic: [UInt8] = Array("STRD".utf8)

    /// The first frame of a connection.
    case hello(minVersion: UInt16, maxVersion: UInt16, clientName: String)
    /// A liveness check; answered with `PONG` carrying the same nonce.
    case ping(nonce: UInt64)
    /// Appends one event; answered with `PUBLISHED` once it is durable.
    case publish(Publish)
    /// Appends several events in one commit; answered with `PUBLISHED_BATCH`.
    case publishBatch(PublishBatch)
    /// Stores the stream's completion (`failure` nil) or failure, its last event; answered with
    /// `PUBLISHED` carrying that event's sequence. The stream accepts nothing after it.
    case endStream(stream: String, failure: String?, expectedLastSequence: UInt64?)
    /// Opens a subscription; answered with `SUBSCRIBED`, then `EVENTS`.
    case subscribe(Subscribe)
    /// More events the server may send on a subscription.
    case credit(subscriptionID: UInt32, credit: UInt32)
    /// Closes a subscription; answered with `SUBSCRIPTION_ENDED`.
    case unsubscribe(subscriptionID: UInt32)
    /// Creates a stream; answered with `STREAM_INFO`.
    case createStream(name: String, policy: StreamPolicy)
    /// Changes a stream's policy; answered with `STREAM_INFO`.
    case configureStream(name: String, policy: StreamPolicy)
    /// Asks for one stream; answered with `STREAM_INFO`.
    case getStreamInfo(name: String)
    /// Asks for every stream; answered with `STREAM_LIST`.
    case listStreams
    /// Asks for the streams named after `after` (all, from the first, when nil), by name, at most
    /// `limit` of them and no more than fit one frame; answered with `STREAM_PAGE`. Version 2.
    case listStreamsPage(after: String?, limit: UInt32)
    /// Removes old events (or only counts them, with `dryRun`); answered with `TRUNCATED`.
    case truncateStream(name: String, truncation: Truncation, dryRun: Bool)
    /// Deletes a stream and its events; answered with `OK`.
    case deleteStream(name: String)
    /// Asks for daemon-wide figures; answered with `STATS`.
    case getStats
    /// Runs the log's integrity check (of one stream, or of all when `stream` is nil); answered with
    /// `VERIFY_REPORT`.
    case verify(stream: String?)
    /// Gives the space that deletions freed inside the database back to the file system now; answered
    /// with `COMPACTED`. Version 3.
    case compact
    /// Attaches to a durable consumer as one of its members; answered with `SUBSCRIBED`, then
    /// `DELIVERIES` as credit allows. `CREDIT` and `UNSUBSCRIBE` work on it as on a subscription.
    /// Version 4.
    case consume(Consume)
    /// Acknowledges events a consumer delivered (to any member, on any connection, attached or
    /// not); answered with `OK` once the acknowledgement is stored. Version 4.
    case ack(stream: String, consumer: String, sequences: [UInt64])
    /// Acknowledges every event the member holds at or below `sequence`; answered with `OK` once
    /// stored. Version 4.
    case ackThrough(subscriptionID: UInt32, sequence: UInt64)
    /// Gives an event a consumer delivered back, to be delivered again (to any member) after
    /// `delayMilliseconds`; answered with `OK`. Version 4.
    case nack(stream: String, consumer: String, sequence: UInt64, delayMilliseconds: UInt64)
    /// Adds a durable consumer to a stream; answered with `CONSUMER_INFO`. Version 4.
    case addConsumer(stream: String, name: String, config: ConsumerConfig)
    /// Asks for one consumer; answered with `CONSUMER_INFO`. Version 4.
    case getConsumerInfo(stream: String, name: String)
    /// Asks for a stream's consumers; answered with `CONSUMER_LIST`. Version 4.
    case listConsumers(stream: String)
    /// Removes a consumer; answered with `OK`. Version 4.
    case deleteConsumer(stream: String, name: String)
    /// Moves a consumer to `sequence`, forgetting its pending events; answered with `CONSUMER_INFO`.
    /// Version 4.
    case resetConsumer(stream: String, name: String, sequence: UInt64)

    /// One event to append.
    public struct Publish: Sendable, Hashable {
        /// The stream.
        public var stream: String
        /// Optimistic concurrency: the stream's last sequence must be this (0 = empty).
        public var expectedLastSequence: UInt64?
        /// De-duplication: a recently seen id is not stored again.
        public var messageID: String?
        /// The bytes of the event.
        public var payload: [UInt8]

        /// The message with these fields.
        public init(stream: String, expectedLastSequence: UInt64? = nil, messageID: String? = nil, payload: [UInt8]) {
            self.stream = stream
            self.expectedLastSequence = expectedLastSequence
            self.messageID = messageID
            self.payload = payload
        }
    }

    /// Several events to append in one commit.
    public struct PublishBatch: Sendable, Hashable {
        public struct Entry: Sendable, Hashable {
            public var messageID: String?
            public var payload: [UInt8]

            /// The message with these fields.
            public init(messageID: String? = nil, payload: [UInt8]) {
                self.messageID = messageID
                self.payload = payload
            }
        }

        /// The stream.
        public var stream: String
        public var expectedLastSequence: UInt64?
        /// The events, in order.
        public var entries: [Entry]

        /// The message with these fields.
        public init(stream: String, expectedLastSequence: UInt64? = nil, entries: [Entry]) {
            self.stream = stream
            self.expectedLastSequence = expectedLastSequence
            self.entries = entries
        }
    }

    /// A member attaching to a durable consumer, under credit-based flow control.
    public struct Consume: Sendable, Hashable {
        /// The client's id for the membership, unique among its live subscriptions.
        public var subscriptionID: UInt32
        /// The stream.
        public var stream: String
        /// The consumer's name.
        public var consumer: String
        /// How many events the server may send before it needs more credit.
        public var credit: UInt32

        /// The message with these fields.
        public init(subscriptionID: UInt32, stream: String, consumer: String, credit: UInt32) {
            self.subscriptionID = subscriptionID
            self.stream = stream
            self.consumer = consumer
            self.credit = credit
        }
    }

    /// A request for a stream's events from a start position, under credit-based flow control.
    public struct Subscribe: Sendable, Hashable {
        /// The client's id for the subscription, unique among its live ones.
        public var subscriptionID: UInt32
        /// The stream.
        public var stream: String
        /// Where the subscription starts.
        public var start: StartPosition
        /// How many events the server may send before it needs more credit.
        public var credit: UInt32

        /// The message with these fields.
        public init(subscriptionID: UInt32, stream: String, start: StartPosition = .streamDefault, credit: UInt32) {
            self.subscriptionID = subscriptionID
            self.stream = stream
            self.start = start
            self.credit = credit
        }
    }
}
