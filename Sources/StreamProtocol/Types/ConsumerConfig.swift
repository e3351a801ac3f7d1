extension ConsumerConfig {
    /// The wire form (`consumer_config` in `schemas/protocol.md`): start, ack wait in milliseconds
    /// (rounded up), max deliver, max pending, dead-letter stream.
    func write(to writer: inout WireWriter) throws {
        start.write(to: &writer)
        writer.write(ackWaitMilliseconds)
        writer.writeOptional(maxDeliver) { $0.write($1) }
        writer.write(maxPending)
        try writer.writeOptional(deadLetter) { try $0.write($1, field: "config.dead_letter") }
    }

    /// Reads the wire form; values out of range are read as they are, for the server to refuse with
    /// `invalid_argument`.
    init(from reader: inout WireReader) throws {
        let start = try StartPosition(from: &reader, "config.start")
        let ackWait = try reader.read(UInt64.self, "config.ack_wait_ms")
        let maxDeliver = try reader.readOptional("config.max_deliver") { try $0.read(UInt32.self, "config.max_deliver") }
        let maxPending = try reader.read(UInt32.self, "config.max_pending")
        let deadLetter = try reader.readOptional("config.dead_letter") { try $0.read(String.self, "config.dead_letter") }
        self.init(start: start, ackWait: .milliseconds(Int64(clamping: ackWait)), maxDeliver: maxDeliver, maxPending: maxPending, deadLetter: deadLetter)
    }
}

extension ConsumerInfo {
    /// The wire form (`consumer_info` in `schemas/protocol.md`).
    func write(to writer: inout WireWriter) throws {
        try writer.write(stream, field: "consumer.stream")
        try writer.write(name, field: "consumer.name")
        try config.write(to: &writer)
        writer.write(ackFloor)
        writer.write(nextSequence)
        writer.write(pending)
        writer.write(redelivered)
        writer.write(lag)
        writer.write(members)
    }

    init(from reader: inout WireReader) throws {
        self.init(
            stream: try reader.read(String.self, "consumer.stream"), name: try reader.read(String.self, "consumer.name"),
            config: try ConsumerConfig(from: &reader), ackFloor: try reader.read(UInt64.self, "consumer.ack_floor"),
            nextSequence: try reader.read(UInt64.self, "consumer.next_sequence"), pending: try reader.read(UInt32.self, "consumer.pending"),
            redelivered: try reader.read(UInt32.self, "consumer.redelivered"), lag: try reader.read(UInt64.self, "consumer.lag"),
            members: try reader.read(UInt32.self, "consumer.members"))
    }
}
