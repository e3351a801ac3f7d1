import EventLog
import StreamProtocol

/// What one durable consumer knows, and its rules, without threads or I/O: which events are pending
/// with whom and until when, which are due again, which member gets what next.
///
/// Times are monotonic nanoseconds (`DispatchTime.uptimeNanoseconds`). Members are keys; each has the
/// credit its client gave. Delivery picks members in turn, so work spreads over those with credit; a
/// member gets first deliveries in sequence order. An event's ack wait starts when it is handed out.
/// A value type; `ServedConsumer` keeps it in a Mutex.
struct ConsumerState {
    /// One delivered, unacknowledged event.
    struct Pending {
        var deliveries: UInt32
        /// When it is due again (`UInt64.max` while it waits in `due`).
        var deadline: UInt64
        /// The member holding it, if one does.
        var holder: ObjectIdentifier?
    }

    /// The events of a first delivery that go to one member: up to `last`, from where the share
    /// before it ended.
    struct Share: Equatable {
        var member: ObjectIdentifier
        var last: UInt64
    }

    /// A deadline set for an event, valid while the event is pending with that deadline.
    private struct Timer {
        var deadline: UInt64
        var sequence: UInt64
    }

    /// What the engine should do next.
    enum Step: Equatable {
        /// Read events `first...last` from the log, once, and give each share to its member (first
        /// deliveries): consecutive runs, one per member with credit, in turn.
        case deliver(first: UInt64, last: UInt64, shares: [Share])
        /// Read these events again and give them to `member`, with their delivery counts.
        case redeliver(member: ObjectIdentifier, [PendingDelivery])
        /// Nothing to do until `deadline` (when a pending event is due), or until something changes.
        case wait(deadline: UInt64?)
    }

    private(set) var config: ConsumerConfig
    private(set) var nextSequence: UInt64
    private(set) var pending: [UInt64: Pending] = [:]
    /// The newest sequence the stream is known to hold.
    var lastSequence: UInt64
    /// Events whose ack wait ran out (or that were given back), to deliver again, smallest first.
    private var due: Set<UInt64> = []
    /// Ack-wait deadlines in the order they were set; with one wait per consumer they never decrease.
    private var waits: [Timer] = []
    private var waitsHead = 0
    /// Deadlines of events given back with a delay, by deadline.
    private var delayed: [Timer] = []
    private var credit: [ObjectIdentifier: UInt64] = [:]
    private var order: [ObjectIdentifier] = []
    private var turn = 0

    /// The most events one step hands out.
    static let stepLimit = 512

    /// The state of `record` as the log kept it, at `now`: its pending events wait one ack wait more
    /// (their members are gone with the process that gave them out).
    init(_ record: ConsumerRecord, lastSequence: UInt64, now: UInt64) {
        config = record.config
        nextSequence = record.nextSequence
        self.lastSequence = lastSequence
        let deadline = now &+ Self.nanoseconds(record.config.ackWaitMilliseconds)
        for delivery in record.pending {
            pending[delivery.sequence] = Pending(deliveries: delivery.deliveries, deadline: deadline, holder: nil)
            waits.append(Timer(deadline: deadline, sequence: delivery.sequence))
        }
    }

    // MARK: Members

    var memberCount: Int { order.count }

    mutating func attach(_ member: ObjectIdentifier, credit: UInt64) {
        if self.credit[member] == nil { order.append(member) }
        self.credit[member, default: 0] = credit
    }

    mutating func addCredit(_ member: ObjectIdentifier, _ more: UInt64) {
        guard let current = credit[member] else { return }
        let (sum, overflow) = current.addingReportingOverflow(more)
        credit[member] = overflow ? .max : sum
    }

    /// Removes a member; what it holds stays pending until its ack wait runs out.
    mutating func detach(_ member: ObjectIdentifier) {
        guard credit.removeValue(forKey: member) != nil else { return }
        order.removeAll { $0 == member }
    }

    // MARK: Acknowledgements

    /// Acknowledges `sequences` (whoever holds them); how many were pending.
    mutating func ack(_ sequences: some Sequence<UInt64>) -> Int {
        var count = 0
        for sequence in sequences where pending.removeValue(forKey: sequence) != nil {
            due.remove(sequence)
            count += 1
        }
        return count
    }

    /// Acknowledges every event `member` holds at or below `sequence`; how many there were.
    mutating func ack(through sequence: UInt64, heldBy member: ObjectIdentifier) -> Int {
        ack(pending.compactMap { $0.key <= sequence && $0.value.holder == member ? $0.key : nil })
    }

    /// Gives `sequence` back to be delivered again after `delay` nanoseconds; whether it was pending.
    mutating func giveBack(_ sequence: UInt64, delay: UInt64, now: UInt64) -> Bool {
        guard var entry = pending[sequence] else { return false }
        entry.holder = nil
        if delay == 0 {
            entry.deadline = .max
            due.insert(sequence)
        } else {
            entry.deadline = now &+ delay
            let timer = Timer(deadline: entry.deadline, sequence: sequence)
            delayed.insert(timer, at: delayed.firstIndex { $0.deadline > timer.deadline } ?? delayed.endIndex)
        }
        pending[sequence] = entry
        return true
    }

    /// Takes back events a step handed out that never reached their member (it left before its frame
    /// was written): due again at once, their delivery not counted.
    mutating func undeliver(_ sequences: [UInt64]) {
        for sequence in sequences {
            guard var entry = pending[sequence] else { continue }
            entry.deliveries = entry.deliveries > 0 ? entry.deliveries - 1 : 0
            entry.deadline = .max
            entry.holder = nil
            pending[sequence] = entry
            due.insert(sequence)
        }
    }

    /// Starts again at `sequence`, forgetting every pending event.
    mutating func reset(to sequence: UInt64) {
        nextSequence = max(1, sequence)
        pending = [:]
        due = []
        waits = []
        waitsHead = 0
        delayed = []
    }

    // MARK: Delivery

    /// Moves the events whose deadline passed to `due`, and returns those delivered `maxDeliver` times
    /// already: they leave the pending set (for the dead-letter stream).
    mutating func expire(now: UInt64) -> [PendingDelivery] {
        var exhausted: [PendingDelivery] = []
        func fire(_ timer: Timer) {
            guard var entry = pending[timer.sequence], entry.deadline == timer.deadline else { return }
            if let maximum = config.maxDeliver, entry.deliveries >= maximum {
                pending[timer.sequence] = nil
                exhausted.append(PendingDelivery(sequence: timer.sequence, deliveries: entry.deliveries))
                return
            }
            entry.deadline = .max
            entry.holder = nil
            pending[timer.sequence] = entry
            due.insert(timer.sequence)
        }
        while waitsHead < waits.count, waits[waitsHead].deadline <= now {
            fire(waits[waitsHead])
            waitsHead += 1
        }
        if waitsHead > 1_024, waitsHead * 2 > waits.count {
            waits.removeFirst(waitsHead)
            waitsHead = 0
        }
        let ripe = delayed.prefix { $0.deadline <= now }.count
        for timer in delayed.prefix(ripe) { fire(timer) }
        delayed.removeFirst(ripe)
        return exhausted.sorted { $0.sequence < $1.sequence }
    }

    /// Keeps an exhausted event pending for one ack wait more (its dead-letter publish failed).
    mutating func restore(_ delivery: PendingDelivery, now: UInt64) {
        let deadline = now &+ Self.nanoseconds(config.ackWaitMilliseconds)
        pending[delivery.sequence] = Pending(deliveries: delivery.deliveries, deadline: deadline, holder: nil)
        delayed.insert(Timer(deadline: deadline, sequence: delivery.sequence), at: delayed.firstIndex { $0.deadline > deadline } ?? delayed.endIndex)
    }

    /// The next thing to do at `now`, with its bookkeeping done: the events it hands out are pending
    /// with their member from here on, and the member's credit is spent.
    mutating func nextStep(now: UInt64, canSend: (ObjectIdentifier) -> Bool) -> Step {
        guard let member = nextMember(canSend) else { return .wait(deadline: earliestDeadline) }
        let deadline = now &+ Self.nanoseconds(config.ackWaitMilliseconds)
        if !due.isEmpty {
            let allowance = Int(min(credit[member]!, UInt64(Self.stepLimit)))
            var again: [PendingDelivery] = []
            for sequence in due.sorted().prefix(allowance) {
                due.remove(sequence)
                pending[sequence]!.deliveries &+= 1
                pending[sequence]!.deadline = deadline
                pending[sequence]!.holder = member
                waits.append(Timer(deadline: deadline, sequence: sequence))
                again.append(PendingDelivery(sequence: sequence, deliveries: pending[sequence]!.deliveries))
            }
            credit[member]! -= UInt64(again.count)
            return .redeliver(member: member, again)
        }
        var room = Int(config.maxPending) - pending.count
        guard room > 0, nextSequence <= lastSequence else { return .wait(deadline: earliestDeadline) }
        // Every member with credit takes its share of one read, so members sharing a stream cost one
        // read of its blocks rather than one each.
        let first = nextSequence
        var shares: [Share] = []
        var taking: ObjectIdentifier? = member
        while let taker = taking, room > 0, nextSequence <= lastSequence, shares.count < order.count {
            let count = min(UInt64(min(Int(min(credit[taker]!, UInt64(Self.stepLimit))), room)), lastSequence - nextSequence + 1)
            let last = nextSequence + count - 1
            for sequence in nextSequence...last {
                pending[sequence] = Pending(deliveries: 1, deadline: deadline, holder: taker)
                waits.append(Timer(deadline: deadline, sequence: sequence))
            }
            credit[taker]! -= count
            room -= Int(count)
            nextSequence = last + 1
            shares.append(Share(member: taker, last: last))
            // A member with a share already ends the round, and has the next turn.
            let turnBefore = turn
            taking = nextMember(canSend)
            if let next = taking, shares.contains(where: { $0.member == next }) {
                turn = turnBefore
                break
            }
        }
        return .deliver(first: first, last: nextSequence - 1, shares: shares)
    }

    /// Forgets events a step handed out that the log no longer holds (dropped by retention) or that
    /// are not values (a stream's completion or failure is acknowledged at once), giving their credit
    /// back to `member`.
    mutating func drop(_ sequences: [UInt64], from member: ObjectIdentifier) {
        let dropped = ack(sequences)
        addCredit(member, UInt64(dropped))
    }

    /// The member whose turn it is among those with credit that can take frames now.
    private mutating func nextMember(_ canSend: (ObjectIdentifier) -> Bool) -> ObjectIdentifier? {
        guard !order.isEmpty else { return nil }
        for offset in 0..<order.count {
            let member = order[(turn + offset) % order.count]
            if credit[member]! > 0, canSend(member) {
                turn = (turn + offset + 1) % order.count
                return member
            }
        }
        return nil
    }

    private var earliestDeadline: UInt64? {
        let wait = waitsHead < waits.count ? waits[waitsHead].deadline : nil
        return [wait, delayed.first?.deadline].compactMap { $0 }.min()
    }

    // MARK: Figures

    /// The state as the log keeps it.
    func record(stream: String, streamCreated: Int64, name: String) -> ConsumerRecord {
        ConsumerRecord(
            stream: stream, streamCreated: streamCreated, name: name, config: config, nextSequence: nextSequence,
            pending: pending.map { PendingDelivery(sequence: $0.key, deliveries: $0.value.deliveries) }.sorted { $0.sequence < $1.sequence })
    }

    /// The consumer's figures.
    func info(stream: String, name: String) -> ConsumerInfo {
        let floor = (pending.keys.min() ?? nextSequence) - 1
        return ConsumerInfo(
            stream: stream, name: name, config: config, ackFloor: floor, nextSequence: nextSequence,
            pending: UInt32(clamping: pending.count), redelivered: UInt32(clamping: pending.values.count { $0.deliveries > 1 }),
            lag: lastSequence >= nextSequence ? lastSequence - nextSequence + 1 : 0, members: UInt32(clamping: order.count))
    }

    static func nanoseconds(_ milliseconds: UInt64) -> UInt64 { milliseconds.multipliedReportingOverflow(by: 1_000_000).partialValue }
}
