import StreamProtocol

/// A stream as `ls`, `info`, `create` and `config` print it in JSON (`$defs/stream` of the schema).
/// A plain value.
struct StreamView: Encodable {
    struct Policy: Encodable {
        /// A stream's own de-duplication window; absent from the policy for the daemon's default.
        struct Deduplication: Encodable {
            var events: UInt64?
            var windowMs: UInt64?
        }

        var capacity: UInt64?
        var maxAgeMs: UInt64?
        var maxBytes: UInt64?
        var deduplication: Deduplication?
        var defaultStart: String
        var summary: String
    }

    var name: String
    var count: UInt64
    var firstSequence: UInt64
    var lastSequence: UInt64
    var firstTime: String?
    var lastTime: String?
    var storedBytes: UInt64
    var rawBytes: UInt64
    var compressionRatio: Double?
    var policy: Policy
    var subscribers: UInt32
    var publishRate: Double
    var state: String

    init(_ info: StreamInfo) {
        name = info.name
        count = info.count
        firstSequence = info.count == 0 ? 0 : info.firstSequence
        lastSequence = info.lastSequence
        firstTime = info.count > 0 ? Formatting.time(info.firstTime) : nil
        lastTime = info.lastSequence > 0 ? Formatting.time(info.lastTime) : nil
        storedBytes = info.storedBytes
        rawBytes = info.rawBytes
        compressionRatio = Formatting.ratio(stored: info.storedBytes, raw: info.rawBytes)
        policy = Policy(
            capacity: info.policy.capacity.count.map { UInt64($0) }, maxAgeMs: info.policy.maxAgeMilliseconds,
            maxBytes: info.policy.maxBytes,
            deduplication: info.policy.deduplication.map { .init(events: $0.events, windowMs: $0.duration?.wholeMillisecondsRoundedUp) },
            defaultStart: Formatting.start(info.policy.replay), summary: Formatting.policy(info.policy))
        subscribers = info.subscribers
        publishRate = info.publishRate
        state = Formatting.state(info.state)
    }

    /// The human form: one `key  value` line each.
    var text: String {
        var rows: [[String]] = [
            ["stream", name],
            ["events", "\(count)" + (count > 0 ? " (\(Formatting.sequences(firstSequence, lastSequence)))" : "")],
            ["last sequence", "\(lastSequence)"],
        ]
        if let firstTime { rows.append(["first time", firstTime]) }
        if let lastTime { rows.append(["last time", lastTime]) }
        rows.append(["stored", Formatting.bytes(storedBytes)])
        rows.append(["raw", Formatting.bytes(rawBytes)])
        rows.append(["ratio", compressionRatio.map { String(format: "%.3f", $0) } ?? "-"])
        rows.append(["policy", policy.summary])
        rows.append(["default start", policy.defaultStart])
        rows.append(["subscribers", "\(subscribers)"])
        rows.append(["publish rate", Formatting.rate(publishRate) + " (last 10 s)"])
        rows.append(["state", state])
        return Formatting.table(rows)
    }
}
