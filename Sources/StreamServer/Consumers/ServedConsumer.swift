import Dispatch
import EventLog
import Logging
import StreamProtocol
import Synchronization

/// One durable consumer as the hub serves it: its state in memory, its members, and the loop that
/// reads the log and hands events out.
///
/// One delivery loop ("pump") runs at a time, on the consumer's serial queue; acknowledgements,
/// credit and new commits change the state under its lock from any thread and wake the pump. Each
/// change is handed to the hub's `ConsumerSaver`, which stores the consumer with the next save;
/// acknowledgements are answered once stored. Administrative changes (reset) run on the queue, so
/// they never fall inside a pump's read.
/// Thread-safety: Sendable; every method may be called from any thread except the queue itself.
final class ServedConsumer: Sendable {
    let stream: String
    let name: String
    /// The life of the stream the consumer belongs to.
    let streamCreated: Int64

    private struct Core {
        var logic: ConsumerState
        var members: [ObjectIdentifier: ConsumerMember] = [:]
        /// Places held for members about to attach (`holdPlace`).
        var places = 0
        var pumpScheduled = false
        /// When the pending timer fires, if one is set.
        var timerAt: UInt64?
        var closed = false
        /// When the last member left (monotonic nanoseconds), zero before any did.
        var emptiedAt: UInt64 = 0
    }

    /// The hub, for what its own requests call. It outlives its consumers in a daemon, but a hub a
    /// test made and dropped may go first: the work a consumer starts by itself (its pumps and
    /// timers) takes `liveHub` instead, and stops when the hub is gone.
    private unowned let hub: StreamHub
    private weak let liveHub: StreamHub?
    private let core: Mutex<Core>
    private let queue: DispatchQueue
    private let observation = Mutex<AppendObservation?>(nil)
    /// Events read ahead of the members; used by the pump only (the Mutex is never contended).
    private let readAhead = Mutex(ReadAhead())

    /// The consumer `record`, whose stream holds events up to `lastSequence`.
    init(record: ConsumerRecord, lastSequence: UInt64, hub: StreamHub) {
        stream = record.stream
        name = record.name
        streamCreated = record.streamCreated
        self.hub = hub
        liveHub = hub
        core = Mutex(Core(logic: ConsumerState(record, lastSequence: lastSequence, now: Self.now)))
        queue = DispatchQueue(label: "streamd.consumer")
    }

    /// Starts following the stream's commits.
    func start() throws {
        let observation = try hub.log.observeAppendsImmediately(to: stream) { [weak self] append in
            guard let self else { return }
            let wake = self.core.withLock { core -> Bool in
                core.logic.lastSequence = max(core.logic.lastSequence, append.lastSequence)
                return core.logic.memberCount > 0
            }
            if wake { self.wake() }
        }
        self.observation.withLock { $0 = observation }
        renewLease()
    }

    /// Saves the consumer every third of its lease, so its lease never runs out while it is served.
    private func renewLease() {
        let period = hub.consumerLease.duration / 3
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(period.components.seconds * 1_000_000_000 + period.components.attoseconds / 1_000_000_000))) {
            [weak self] in
            guard let self, let hub = self.liveHub, !self.isClosed else { return }
            hub.consumerSaver.changed(self, then: nil)
            self.renewLease()
        }
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Members

    /// Holds a place for a member about to attach: until it attaches or the place is given back
    /// (`givePlaceBack`), the consumer is not given up for want of members. False when it was closed.
    ///
    /// The hub holds it under its table's lock as it finds the consumer, so a give-up, which looks
    /// whether the consumer is idle under the same lock, either took the consumer out of the table
    /// before or sees the place.
    func holdPlace() -> Bool {
        core.withLock { core in
            guard !core.closed else { return false }
            core.places += 1
            return true
        }
    }

    /// Adds `member` with `credit` in a place held for it (`holdPlace`); false when the consumer was
    /// closed meanwhile (deleted, its stream deleted, or served by another daemon now), or the member
    /// ended before it attached (its connection closed): the place is given back then.
    func attach(_ member: ConsumerMember, credit: UInt32) -> Bool {
        let (attached, idle) = core.withLock { core -> (Bool, Bool) in
            precondition(core.places > 0, "a member attaches in a place held for it")
            core.places -= 1
            // A member ends before it detaches (`ConsumerMember.end`), so one that ended finds no
            // detach to come.
            guard !core.closed, !member.isEnded else { return (false, Self.emptied(&core)) }
            core.members[ObjectIdentifier(member)] = member
            core.logic.attach(ObjectIdentifier(member), credit: UInt64(credit))
            return (true, false)
        }
        if attached { wake() } else if idle { releaseWhenIdle() }
        return attached
    }

    func detach(_ member: ConsumerMember) {
        let idle = core.withLock { core -> Bool in
            core.members[ObjectIdentifier(member)] = nil
            core.logic.detach(ObjectIdentifier(member))
            return Self.emptied(&core)
        }
        if idle { releaseWhenIdle() }
    }

    /// Gives back a place held for a member that does not attach (its connection closed meanwhile).
    func givePlaceBack() {
        let idle = core.withLock { core -> Bool in
            core.places -= 1
            return Self.emptied(&core)
        }
        if idle { releaseWhenIdle() }
    }

    /// Whether `core` has neither members nor places held now; if so, notes when it emptied.
    private static func emptied(_ core: inout Core) -> Bool {
        guard core.members.isEmpty, core.places == 0 else { return false }
        core.emptiedAt = now
        return true
    }

    /// Gives the consumer up once nobody has been attached for `idleRelease` since the last member
    /// left (acknowledgements may follow it), so another daemon sharing the log may serve it. Members
    /// that come and go keep it: the check after the last of them to leave gives it up.
    private func releaseWhenIdle() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(Self.idleRelease))) { [weak self] in
            guard let self, let hub = self.liveHub, self.core.withLock({ Self.now &- $0.emptiedAt >= Self.idleRelease }), self.isIdle else { return }
            hub.retire(self)
        }
    }

    /// How long a consumer stays served with no member attached, in nanoseconds.
    static let idleRelease: UInt64 = 2_000_000_000

    /// Whether no member is attached and no place held for one.
    var isIdle: Bool { core.withLock { $0.members.isEmpty && $0.places == 0 && !$0.closed } }

    func addCredit(_ credit: UInt32, to member: ConsumerMember) {
        core.withLock { $0.logic.addCredit(ObjectIdentifier(member), UInt64(credit)) }
        wake()
    }

    /// The next sequence to deliver for the first time.
    var nextSequence: UInt64 { core.withLock { $0.logic.nextSequence } }

    var info: ConsumerInfo { core.withLock { $0.logic.info(stream: stream, name: name) } }

    /// The consumer as the log keeps it.
    var record: ConsumerRecord { core.withLock { record(of: $0) } }

    /// The consumer as the log keeps it, from `core` (held under its lock).
    private func record(of core: Core) -> ConsumerRecord { core.logic.record(stream: stream, streamCreated: streamCreated, name: name) }

    /// Whether it was closed (deleted, or its stream was): a saver stores it no more.
    var isClosed: Bool { core.withLock { $0.closed } }

    // MARK: Acknowledgements

    /// Acknowledges `sequences`, then calls `stored` once the change is stored (at once when nothing
    /// was pending).
    ///
    /// Once the consumer is closed it stores nothing more, so an acknowledgement that reaches it then
    /// (found in the hub's table just before it was given up) goes to the consumer the hub serves now,
    /// loaded from what this one stored; `stored` hears the error if there is none.
    func ack(_ sequences: [UInt64], stored: @escaping @Sendable ((any Error)?) -> Void) {
        guard let count = core.withLock({ $0.closed ? nil : $0.logic.ack(sequences) }) else {
            do {
                try hub.servedConsumer(name, of: stream).ack(sequences, stored: stored)
            } catch {
                stored(error)
            }
            return
        }
        finishAck(count, stored: stored)
    }

    /// Acknowledges what `member` holds at or below `sequence`, then calls `stored` as `ack` does;
    /// once the consumer is closed its members have ended, and `stored` hears `subscription_not_found`.
    func ack(through sequence: UInt64, heldBy member: ConsumerMember, stored: @escaping @Sendable ((any Error)?) -> Void) {
        guard let count = core.withLock({ $0.closed ? nil : $0.logic.ack(through: sequence, heldBy: ObjectIdentifier(member)) }) else {
            return stored(ServerError(
                .subscriptionNotFound,
                "consumer membership \(member.id) ended before its acknowledgement came (consumer \"\(name)\" of \"\(stream)\" was given up, deleted or taken over); acknowledge the events by name with ACK."))
        }
        finishAck(count, stored: stored)
    }

    private func finishAck(_ count: Int, stored: @escaping @Sendable ((any Error)?) -> Void) {
        guard count > 0 else { return stored(nil) }
        hub.metrics.acknowledgedEvents.increment(by: Int64(count))
        // Room in the pending set may let the next events out.
        wake()
        hub.consumerSaver.changed(self, then: stored)
    }

    /// Gives `sequence` back for delivery after `delayMilliseconds`; whether it was pending. Once the
    /// consumer is closed it goes to the consumer the hub serves now, as an acknowledgement does.
    func giveBack(_ sequence: UInt64, delayMilliseconds: UInt64) throws -> Bool {
        let now = Self.now
        let found = core.withLock { core in
            core.closed ? nil : core.logic.giveBack(sequence, delay: ConsumerState.nanoseconds(delayMilliseconds), now: now)
        }
        guard let found else { return try hub.servedConsumer(name, of: stream).giveBack(sequence, delayMilliseconds: delayMilliseconds) }
        if found { wake() }
        return found
    }

    /// Starts again at `sequence`, forgetting pending events; runs between pumps, and returns once
    /// the change is stored. Once the consumer is closed it goes to the consumer the hub serves now,
    /// as an acknowledgement does (a reset made before the close is in the record the close stored).
    func reset(to sequence: UInt64) throws -> ConsumerInfo {
        let made = queue.sync {
            let made = core.withLock { core in
                guard !core.closed else { return false }
                core.logic.reset(to: sequence)
                return true
            }
            if made { readAhead.withLock { $0.clear() } }
            return made
        }
        guard made else { return try hub.servedConsumer(name, of: stream).reset(to: sequence) }
        wake()
        try hub.consumerSaver.store(self)
        return info
    }

    /// Closes the consumer: no delivery follows, and each member ends with `reason` and `message`.
    /// Returns the consumer as the log keeps it, taken as it closed: it holds every acknowledgement
    /// the consumer took (later ones go to the hub's next one, see `ack`).
    @discardableResult
    func close(reason: SubscriptionEndReason, message: String) -> ConsumerRecord {
        let (members, record) = core.withLock { core -> ([ConsumerMember], ConsumerRecord) in
            core.closed = true
            return (Array(core.members.values), self.record(of: core))
        }
        observation.withLock { $0?.cancel() }
        for member in members { member.end(reason: reason, message: message, replyTo: member.requestID) }
        queue.sync {}
        return record
    }

    // MARK: Delivery

    /// Runs the pump on the queue unless it runs already.
    func wake() {
        let claimed = core.withLock { core -> Bool in
            guard !core.pumpScheduled, !core.closed else { return false }
            core.pumpScheduled = true
            return true
        }
        if claimed { queue.async { self.pump() } }
    }

    private func pump() {
        guard let hub = liveHub else {
            core.withLock { $0.pumpScheduled = false }
            return
        }
        withExtendedLifetime(hub) { pumpWhileWorkWaits() }
    }

    /// `pump`'s loop, with the hub alive.
    private func pumpWhileWorkWaits() {
        while true {
            let now = Self.now
            let (step, exhausted, members) = core.withLock { core -> (ConsumerState.Step, [PendingDelivery], [ObjectIdentifier: ConsumerMember]) in
                guard !core.closed else {
                    core.pumpScheduled = false
                    return (.wait(deadline: nil), [], [:])
                }
                let exhausted = core.logic.expire(now: now)
                let members = core.members
                let step = core.logic.nextStep(now: now) { members[$0]?.canSend ?? false }
                if case .wait = step, exhausted.isEmpty { core.pumpScheduled = false }
                return (step, exhausted, members)
            }
            if !exhausted.isEmpty { moveToDeadLetter(exhausted) }
            switch step {
            case let .wait(deadline):
                if let deadline { setTimer(deadline) }
                if exhausted.isEmpty { return }
            case let .deliver(first, last, shares):
                deliver(first...last, in: shares, members: members)
            case let .redeliver(key, deliveries):
                guard let member = members[key] else { continue }
                redeliver(deliveries, to: member)
            }
        }
    }

    /// Reads `sequences` once and sends each share to its member as first deliveries, in frames of the
    /// hub's size.
    private func deliver(_ sequences: ClosedRange<UInt64>, in shares: [ConsumerState.Share], members: [ObjectIdentifier: ConsumerMember]) {
        var share = 0
        var frames = shares.map { members[$0.member].map { DeliveryFrames(member: $0, limits: hub.limits) } }
        var missing: [[UInt64]] = shares.map { _ in [] }
        // Events of a member that left between the step and the read: due again at once.
        var unsent: [UInt64] = []
        var expected = sequences.lowerBound
        func skip(to sequence: UInt64) {
            while expected < sequence {
                while expected > shares[share].last { share += 1 }
                missing[share].append(expected)
                expected += 1
            }
        }
        do {
            for event in try readAhead.withLock({ try $0.events(sequences, of: stream, in: hub.log) }) {
                // Events trimmed by retention meanwhile, and terminal events, are not handed out.
                skip(to: event.sequence)
                while event.sequence > shares[share].last { share += 1 }
                expected = event.sequence + 1
                if event.kind != .value {
                    missing[share].append(event.sequence)
                } else if frames[share] == nil {
                    unsent.append(event.sequence)
                } else {
                    try event.payload.withUnsafeBytes { payload in
                        try frames[share]!.add(sequence: event.sequence, timestamp: event.timestamp, payload: payload, deliveries: 1)
                    }
                }
            }
        } catch {
            return failed(reading: error)
        }
        skip(to: sequences.upperBound + 1)
        var delivered = 0
        for index in frames.indices {
            frames[index]?.flush()
            delivered += frames[index]?.sent ?? 0
            unsent += frames[index]?.unsent ?? []
        }
        core.withLock { core in
            for (index, share) in shares.enumerated() where !missing[index].isEmpty { core.logic.drop(missing[index], from: share.member) }
            core.logic.undeliver(unsent)
        }
        hub.metrics.deliveredEvents.increment(by: Int64(delivered))
        hub.consumerSaver.changed(self, then: nil)
    }

    /// Reads each of `deliveries` again and sends them to `member` with their counts.
    private func redeliver(_ deliveries: [PendingDelivery], to member: ConsumerMember) {
        var frames = DeliveryFrames(member: member, limits: hub.limits)
        var missing: [UInt64] = []
        do {
            for delivery in deliveries {
                var found = false
                try hub.log.read(stream, from: .from(sequence: delivery.sequence), expecting: 1) { event in
                    if event.sequence == delivery.sequence, event.kind == .value {
                        try frames.add(sequence: event.sequence, timestamp: event.timestamp, payload: event.payload, deliveries: delivery.deliveries)
                        found = true
                    }
                    return false
                }
                if !found { missing.append(delivery.sequence) }
            }
        } catch {
            return failed(reading: error)
        }
        frames.flush()
        core.withLock { core in
            if !missing.isEmpty { core.logic.drop(missing, from: ObjectIdentifier(member)) }
            core.logic.undeliver(frames.unsent)
        }
        hub.metrics.deliveredEvents.increment(by: Int64(frames.sent))
        hub.metrics.redeliveredEvents.increment(by: Int64(frames.sent))
        hub.consumerSaver.changed(self, then: nil)
    }

    /// A read of the stream failed: a stream deleted (through another daemon sharing the log) closes
    /// the consumer, telling its members; otherwise what was handed out stays pending, to go out again
    /// after its ack wait.
    private func failed(reading error: any Error) {
        if let error = error as? EventLogError, error.code == .streamNotFound {
            // Not from this queue: closing waits for it.
            DispatchQueue.global().async { self.liveHub?.closeConsumers(of: self.stream) }
            return
        }
        hub.logger.error("a durable consumer could not read its stream", metadata: [
            "stream": .string(stream), "consumer": .string(name), "error": .string(ServerError.from(error).message),
        ])
    }

    /// Publishes each event delivered `maxDeliver` times to the dead-letter stream (or drops it when
    /// there is none); one whose publish fails stays pending for another ack wait.
    private func moveToDeadLetter(_ exhausted: [PendingDelivery]) {
        let target = core.withLock { $0.logic.config.deadLetter }
        for delivery in exhausted {
            guard let target else { continue }
            do {
                var payload: [UInt8]?
                try hub.log.read(stream, from: .from(sequence: delivery.sequence), expecting: 1) { event in
                    if event.sequence == delivery.sequence { payload = [UInt8](event.payload) }
                    return false
                }
                guard let payload else { continue }
                _ = try hub.publish(to: target, expectedLastSequence: nil, [.init(messageID: deadLetterID(delivery.sequence), payload: payload)])
                hub.metrics.deadLetteredEvents.increment()
            } catch {
                let now = Self.now
                core.withLock { $0.logic.restore(delivery, now: now) }
                hub.logger.warning("an event delivered its maximum number of times could not be moved to its dead-letter stream; it stays pending", metadata: [
                    "stream": .string(stream), "consumer": .string(name), "sequence": .stringConvertible(delivery.sequence),
                    "dead-letter": .string(target), "error": .string(ServerError.from(error).message),
                ])
            }
        }
        hub.consumerSaver.changed(self, then: nil)
    }

    /// The message id an event moved to the dead-letter stream carries, so a move repeated after a
    /// crash is stored once: the consumer (by a hash of its stream and name) and the sequence.
    private func deadLetterID(_ sequence: UInt64) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in stream.utf8 + [0] + name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return "dead-letter/\(String(hash, radix: 16))/\(sequence)"
    }

    private func setTimer(_ deadline: UInt64) {
        let set = core.withLock { core -> Bool in
            if let at = core.timerAt, at <= deadline, at > Self.now { return false }
            core.timerAt = deadline
            return true
        }
        guard set else { return }
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) { [weak self] in
            guard let self else { return }
            self.core.withLock { if $0.timerAt == deadline { $0.timerAt = nil } }
            self.wake()
        }
    }
}

/// `DELIVERIES` frames for one member, filled from log reads and sent as they fill.
///
/// A value type used on the consumer's queue.
private struct DeliveryFrames {
    let member: ConsumerMember
    let limits: ServerLimits
    private var frame: EventsFrameBuilder
    /// The sequences in `frame`.
    private var inFrame: [UInt64] = []
    /// Events in frames the member took.
    private(set) var sent = 0
    /// Events in frames it did not take (it had ended).
    private(set) var unsent: [UInt64] = []

    init(member: ConsumerMember, limits: ServerLimits) {
        self.member = member
        self.limits = limits
        frame = Self.empty(member)
    }

    private static func empty(_ member: ConsumerMember) -> EventsFrameBuilder {
        EventsFrameBuilder(subscriptionID: member.id, requestID: member.requestID, capacity: 64 * 1024, countsDeliveries: true)
    }

    mutating func add(sequence: UInt64, timestamp: Int64, payload: UnsafeRawBufferPointer, deliveries: UInt32) throws {
        if frame.isFull(adding: payload.count, limits: limits) { flush() }
        try frame.append(sequence: sequence, timestamp: timestamp, kind: .value, payload: payload, deliveries: deliveries)
        inFrame.append(sequence)
    }

    mutating func flush() {
        guard frame.count > 0 else { return }
        if member.send(frame: frame.finished()) { sent += inFrame.count } else { unsent += inFrame }
        inFrame.removeAll(keepingCapacity: true)
        frame = Self.empty(member)
    }
}
