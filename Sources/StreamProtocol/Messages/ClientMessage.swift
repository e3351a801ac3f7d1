/// A message a client sends to the server.
public enum ClientMessage: Sendable, Hashable {
    /// The protocol's magic bytes at the start of `HELLO`: "STRD".
    public static let magic: [UInt8] = Array("STRD".utf8)

    /// The first frame of a connection.
    case hello(minVersion: UInt16, maxVersion: UInt16, clientName: String)
    case ping(nonce: UInt64)
    case publish(Publish)
    case publishBatch(PublishBatch)
    case subscribe(Subscribe)
    /// More events the server may send on a subscription.
    case credit(subscriptionID: UInt32, credit: UInt32)
    case unsubscribe(subscriptionID: UInt32)
    case createStream(name: String, policy: StreamPolicy)
    case configureStream(name: String, policy: StreamPolicy)
    case getStreamInfo(name: String)
    case listStreams
    case truncateStream(name: String, truncation: Truncation, dryRun: Bool)
    case deleteStream(name: String)

    /// One event to append.
    public struct Publish: Sendable, Hashable {
        public var stream: String
        /// Optimistic concurrency: the stream's last sequence must be this (0 = empty).
        public var expectedLastSequence: UInt64?
        /// De-duplication: a recently seen id is not stored again.
        public var messageID: String?
        public var payload: [UInt8]

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

            public init(messageID: String? = nil, payload: [UInt8]) {
                self.messageID = messageID
                self.payload = payload
            }
        }

        public var stream: String
        public var expectedLastSequence: UInt64?
        public var entries: [Entry]

        public init(stream: String, expectedLastSequence: UInt64? = nil, entries: [Entry]) {
            self.stream = stream
            self.expectedLastSequence = expectedLastSequence
            self.entries = entries
        }
    }

    /// A request for a stream's events from a start position, under credit-based flow control.
    public struct Subscribe: Sendable, Hashable {
        public var subscriptionID: UInt32
        public var stream: String
        public var start: StartPosition
        public var credit: UInt32

        public init(subscriptionID: UInt32, stream: String, start: StartPosition = .streamDefault, credit: UInt32) {
            self.subscriptionID = subscriptionID
            self.stream = stream
            self.start = start
            self.credit = credit
        }
    }
}
