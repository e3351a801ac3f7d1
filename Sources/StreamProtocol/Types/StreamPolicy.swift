extension StreamPolicy {
    /// The wire form: capacity, max age in milliseconds and max bytes, each optional, then the replay
    /// position, then from version 4 the de-duplication window (see `schemas/protocol.md`). Ages are
    /// sent in whole milliseconds, rounded up.
    func write(to writer: inout WireWriter) {
        writer.writeOptional(capacity.count.map { UInt64($0) }) { $0.write($1) }
        writer.writeOptional(maxAgeMilliseconds) { $0.write($1) }
        writer.writeOptional(maxBytes) { $0.write($1) }
        replay.write(to: &writer)
        guard writer.version >= ProtocolVersions.deduplicationWindows else { return }
        writer.writeOptional(deduplication) { writer, window in
            writer.writeOptional(window.events) { $0.write($1) }
            writer.writeOptional(window.duration?.wholeMillisecondsRoundedUp) { $0.write($1) }
        }
    }

    /// Reads the wire form of the reader's version (without a de-duplication window before version
    /// 4). A capacity of 0 cannot be held by any policy and is malformed; other impossible limits (an
    /// age or a byte bound of 0, a window with neither bound) are read as they are, for the log to
    /// refuse with `invalid_argument`.
    init(from reader: inout WireReader) throws {
        let capacity = try reader.readOptional("policy.capacity") { try $0.read(UInt64.self, "policy.capacity") }
        let maxAge = try reader.readOptional("policy.max_age_ms") { try $0.read(UInt64.self, "policy.max_age_ms") }
        let maxBytes = try reader.readOptional("policy.max_bytes") { try $0.read(UInt64.self, "policy.max_bytes") }
        let replay = try StartPosition(from: &reader, "policy.default_start")
        let deduplication = try reader.version < ProtocolVersions.deduplicationWindows ? nil : reader.readOptional("policy.deduplication") { reader in
            DeduplicationWindow(
                events: try reader.readOptional("policy.deduplication.events") { try $0.read(UInt64.self, "policy.deduplication.events") },
                duration: try reader.readOptional("policy.deduplication.window_ms") {
                    Duration.milliseconds(Int64(clamping: try $0.read(UInt64.self, "policy.deduplication.window_ms")))
                })
        }
        if let capacity, capacity == 0 || capacity > UInt64(Int64.max) {
            throw ProtocolError.malformed("policy.capacity is \(capacity), but must be 1...\(Int64.max) (absent for unlimited)")
        }
        self.init(
            capacity: capacity.map { .last(Int($0)) } ?? .unlimited, maxAge: maxAge.map { .milliseconds(Int64(clamping: $0)) },
            maxBytes: maxBytes, replay: replay, deduplication: deduplication)
    }
}
