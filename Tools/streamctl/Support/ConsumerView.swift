import StreamProtocol

/// A durable consumer as `consumer add`, `ls`, `info` and `reset` print it in JSON (`$defs/consumer`
/// of the schema), and its text forms. A plain value.
struct ConsumerView: Encodable {
    var stream: String
    var name: String
    var start: String
    var ackWaitMs: UInt64
    var maxDeliver: UInt32?
    var maxPending: UInt32
    var deadLetter: String?
    var ackFloor: UInt64
    var nextSequence: UInt64
    var pending: UInt32
    var redelivered: UInt32
    var lag: UInt64
    var members: UInt32

    init(_ info: ConsumerInfo) {
        stream = info.stream
        name = info.name
        start = Formatting.start(info.config.start)
        ackWaitMs = info.config.ackWaitMilliseconds
        maxDeliver = info.config.maxDeliver
        maxPending = info.config.maxPending
        deadLetter = info.config.deadLetter
        ackFloor = info.ackFloor
        nextSequence = info.nextSequence
        pending = info.pending
        redelivered = info.redelivered
        lag = info.lag
        members = info.members
    }

    /// Its configuration in words: `ack wait 30s, max deliver 5, max pending 1000, dead letters to x`.
    var configuration: String {
        var parts = ["ack wait \(Formatting.duration(milliseconds: ackWaitMs))"]
        parts.append(maxDeliver.map { "max deliver \($0)" } ?? "delivered until acknowledged")
        parts.append("max pending \(maxPending)")
        if let deadLetter { parts.append("dead letters to \(deadLetter)") }
        return parts.joined(separator: ", ")
    }

    /// The human form: one `key  value` line each.
    var text: String {
        Formatting.table([
            ["consumer", name],
            ["stream", stream],
            ["acknowledged", "through \(ackFloor)"],
            ["next", "\(nextSequence)"],
            ["pending", "\(pending)" + (redelivered > 0 ? " (\(redelivered) redelivered)" : "")],
            ["lag", Formatting.count(lag, "event")],
            ["members", "\(members)"],
            ["started at", start],
            ["config", configuration],
        ])
    }

    /// The row `consumer ls` prints.
    var row: [String] { [name, "\(ackFloor)", "\(nextSequence)", "\(pending)", "\(redelivered)", "\(lag)", "\(members)"] }

    /// The header of `consumer ls`.
    static let header = ["CONSUMER", "ACKED", "NEXT", "PENDING", "REDELIVERED", "LAG", "MEMBERS"]
}
