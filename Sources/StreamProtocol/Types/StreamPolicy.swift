/// How a stream keeps its events, and where late subscribers start by default.
public struct StreamPolicy: Sendable, Hashable {
    /// The most events kept (oldest trimmed first); `nil` keeps all; 1 is replay-last.
    public var capacity: UInt64?
    /// Events older than this many milliseconds are trimmed; `nil` keeps them.
    public var maxAgeMilliseconds: UInt64?
    /// The most stored bytes kept (oldest trimmed first); `nil` means no limit.
    public var maxBytes: UInt64?
    /// Where a subscriber asking for `.streamDefault` starts.
    public var defaultStart: StartPosition

    /// A policy; by default unlimited, with late subscribers starting at the first retained event.
    public init(
        capacity: UInt64? = nil, maxAgeMilliseconds: UInt64? = nil, maxBytes: UInt64? = nil,
        defaultStart: StartPosition = .all
    ) {
        self.capacity = capacity
        self.maxAgeMilliseconds = maxAgeMilliseconds
        self.maxBytes = maxBytes
        self.defaultStart = defaultStart
    }
}

extension StreamPolicy {
    func write(to writer: inout WireWriter) {
        writer.writeOptional(capacity) { $0.write($1) }
        writer.writeOptional(maxAgeMilliseconds) { $0.write($1) }
        writer.writeOptional(maxBytes) { $0.write($1) }
        defaultStart.write(to: &writer)
    }

    init(from reader: inout WireReader) throws {
        capacity = try reader.readOptional("policy.capacity") { try $0.read(UInt64.self, "policy.capacity") }
        maxAgeMilliseconds = try reader.readOptional("policy.max_age_ms") { try $0.read(UInt64.self, "policy.max_age_ms") }
        maxBytes = try reader.readOptional("policy.max_bytes") { try $0.read(UInt64.self, "policy.max_bytes") }
        defaultStart = try StartPosition(from: &reader, "policy.default_start")
    }
}
