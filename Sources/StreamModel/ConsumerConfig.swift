/// How a durable consumer hands out its stream's events: where it starts, how long a member has to
/// acknowledge an event, how often an event is delivered before it goes to the dead-letter stream, and
/// how many events may wait for acknowledgement at once. The same value in `streamd`, the client
/// library and `streamctl consumer add`.
///
/// Values are Sendable.
///
/// ## Example
///
/// ```swift
/// // Every retained event; 10 s to acknowledge; a fifth failed delivery moves the event to "orders.dead".
/// let config = ConsumerConfig(start: .all, ackWait: .seconds(10), maxDeliver: 5, deadLetter: "orders.dead")
/// _ = try await connection.addConsumer("billing", on: "orders", config: config)
/// ```
public struct ConsumerConfig: Hashable, Sendable {
    /// Where a new consumer starts (resolved once, when it is added).
    public var start: StartPosition
    /// How long a delivered event waits for its acknowledgement before it is delivered again.
    /// `streamd` keeps it in whole milliseconds.
    public var ackWait: Duration
    /// How many times an event is delivered at most; the next time its ack wait runs out it goes to
    /// `deadLetter` (or is dropped when there is none). Nil delivers it until it is acknowledged.
    public var maxDeliver: UInt32?
    /// The most events delivered and not yet acknowledged at once, over every member.
    public var maxPending: UInt32
    /// The stream an event delivered `maxDeliver` times is published to, with its original payload.
    public var deadLetter: String?

    /// A configuration; the default starts at the first retained event, waits 30 s for each
    /// acknowledgement, delivers until acknowledged and keeps at most 1 000 events pending.
    public init(
        start: StartPosition = .all, ackWait: Duration = .seconds(30), maxDeliver: UInt32? = nil, maxPending: UInt32 = 1_000,
        deadLetter: String? = nil
    ) {
        self.start = start
        self.ackWait = ackWait
        self.maxDeliver = maxDeliver
        self.maxPending = maxPending
        self.deadLetter = deadLetter
    }

    /// The longest ack wait: a day.
    package static let longestAckWait = Duration.seconds(86_400)
    /// The most pending events one consumer may allow.
    package static let largestMaxPending: UInt32 = 1_000_000

    /// What is wrong with the configuration, as a sentence saying what to do; nil when it can be kept.
    package var problem: String? {
        if ackWait < .milliseconds(1) || ackWait > Self.longestAckWait {
            return "the ack wait must be 1 ms to 1 day, not \(ackWait)."
        }
        if maxDeliver == 0 {
            return "max deliver must be at least 1 (or absent, to deliver until acknowledged)."
        }
        if maxPending == 0 || maxPending > Self.largestMaxPending {
            return "max pending must be 1...\(Self.largestMaxPending), not \(maxPending)."
        }
        return nil
    }

    /// `ackWait` in whole milliseconds, rounded up, as `streamd` keeps it.
    package var ackWaitMilliseconds: UInt64 {
        ackWait.wholeMillisecondsRoundedUp
    }
}
