extension StreamInfo {
    func write(to writer: inout WireWriter) throws {
        try writer.write(name, field: "stream_info.name")
        policy.write(to: &writer)
        // The wire gives 0 as the first sequence of a stream that retains nothing.
        for value in [count, count == 0 ? 0 : firstSequence, lastSequence] { writer.write(value) }
        writer.write(firstTime)
        writer.write(lastTime)
        writer.write(storedBytes)
        writer.write(rawBytes)
        writer.write(subscribers)
        writer.write(state.rawValue)
        writer.write(publishRateMillis)
    }

    init(from reader: inout WireReader) throws {
        self.init(name: try reader.read(String.self, "stream_info.name"))
        policy = try StreamPolicy(from: &reader)
        count = try reader.read(UInt64.self, "stream_info.count")
        firstSequence = try reader.read(UInt64.self, "stream_info.first_sequence")
        lastSequence = try reader.read(UInt64.self, "stream_info.last_sequence")
        firstTime = try reader.read(Int64.self, "stream_info.first_time")
        lastTime = try reader.read(Int64.self, "stream_info.last_time")
        storedBytes = try reader.read(UInt64.self, "stream_info.stored_bytes")
        rawBytes = try reader.read(UInt64.self, "stream_info.raw_bytes")
        subscribers = try reader.read(UInt32.self, "stream_info.subscribers")
        let rawState = try reader.read(UInt8.self, "stream_info.state")
        guard let state = State(rawValue: rawState) else {
            throw ProtocolError.malformed("stream_info.state is \(rawState), but must be 0...2")
        }
        self.state = state
        publishRateMillis = try reader.read(UInt64.self, "stream_info.publish_rate")
        if count == 0 { firstSequence = lastSequence + 1 }
    }
}
