/// The type bytes of versions 1 to 4 (schemas/protocol.md).
enum MessageType {
    static let hello: UInt8 = 0x01
    static let ping: UInt8 = 0x02
    static let publish: UInt8 = 0x10
    static let publishBatch: UInt8 = 0x11
    static let endStream: UInt8 = 0x12
    static let subscribe: UInt8 = 0x20
    static let credit: UInt8 = 0x21
    static let unsubscribe: UInt8 = 0x22
    /// Version 4.
    static let consume: UInt8 = 0x23
    static let ack: UInt8 = 0x24
    static let ackThrough: UInt8 = 0x25
    static let nack: UInt8 = 0x26
    static let createStream: UInt8 = 0x30
    static let configureStream: UInt8 = 0x31
    static let getStreamInfo: UInt8 = 0x32
    static let listStreams: UInt8 = 0x33
    static let truncateStream: UInt8 = 0x34
    static let deleteStream: UInt8 = 0x35
    static let getStats: UInt8 = 0x36
    static let verify: UInt8 = 0x37
    /// Version 2.
    static let listStreamsPage: UInt8 = 0x38
    /// Version 3.
    static let compact: UInt8 = 0x39
    /// Version 4.
    static let addConsumer: UInt8 = 0x3A
    static let getConsumerInfo: UInt8 = 0x3B
    static let listConsumers: UInt8 = 0x3C
    static let deleteConsumer: UInt8 = 0x3D
    static let resetConsumer: UInt8 = 0x3E

    static let welcome: UInt8 = 0x81
    static let pong: UInt8 = 0x82
    static let published: UInt8 = 0x90
    static let publishedBatch: UInt8 = 0x91
    static let subscribed: UInt8 = 0xA0
    static let events: UInt8 = 0xA1
    static let subscriptionEnded: UInt8 = 0xA2
    /// Version 4.
    static let deliveries: UInt8 = 0xA3
    static let streamInfo: UInt8 = 0xB0
    static let streamList: UInt8 = 0xB1
    static let truncated: UInt8 = 0xB2
    static let ok: UInt8 = 0xB3
    static let stats: UInt8 = 0xB4
    static let verifyReport: UInt8 = 0xB5
    /// Version 2.
    static let streamPage: UInt8 = 0xB6
    /// Version 3.
    static let compacted: UInt8 = 0xB7
    /// Version 4.
    static let consumerInfo: UInt8 = 0xB8
    static let consumerList: UInt8 = 0xB9
    static let error: UInt8 = 0xE0
}
