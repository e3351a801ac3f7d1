import Dispatch
import EventLog
import StreamProtocol
import Synchronization

/// One subscription of one connection: catch-up from the log, then live events, under credit.
///
/// Live commits arrive on the committing thread (on the log's notification queue while many follow the
/// stream) and are buffered only while the subscription
/// keeps up: the buffer holds at most `maximumBufferedEvents` events (and about
/// `maximumBufferedBytes`). A commit that does not fit, or that does not follow the buffer without a
/// gap, drops the buffer ("detaches"); the subscription then reads the log on disk from its next
/// sequence, as a Kafka consumer would, and re-attaches once a read finds nothing newer than the
/// last commit it was told about. So a slow or creditless subscriber never loses an event, never
/// blocks a publisher, and costs a bounded amount of memory.
///
/// One delivery loop ("pump") runs at a time, claimed under the state's lock: on the log's
/// notification thread for a live commit the subscription can send at once, else on the
/// subscription's own serial queue (catch-up reads, credit, resumption). So its `EVENTS` keep
/// sequence order whichever thread sends them.
/// Thread-safety: Sendable; state sits in a Mutex, and frames are sent outside it.
final class Subscription: Sendable {
    /// The client's id for the subscription.
    let id: UInt32
    /// The `SUBSCRIBE` request the subscription's `EVENTS` answer.
    let requestID: UInt32
    /// The stream followed.
    let stream: String
    /// Who subscribed, for the log; nil when unknown (in process).
    let owner: AccessIdentity?

    private let hub: StreamHub
    private let send: @Sendable (ServerMessage, UInt32) -> Void
    private let sendFrame: @Sendable ([UInt8]) -> Void
    private let canSend: @Sendable () -> Bool
    private let onEnded: @Sendable (Subscription) -> Void
    private let state = Mutex(SubscriptionState())
    /// Held while a frame is handed to the connection.
    private let gate = SendGate()
    private let queue: DispatchQueue

    init(
        id: UInt32, requestID: UInt32, stream: String, hub: StreamHub, owner: AccessIdentity? = nil,
        send: @escaping @Sendable (ServerMessage, UInt32) -> Void,
        sendFrame: @escaping @Sendable ([UInt8]) -> Void,
        canSend: @escaping @Sendable () -> Bool = { true },
        onEnded: @escaping @Sendable (Subscription) -> Void
    ) {
        self.id = id
        self.requestID = requestID
        self.stream = stream
        self.owner = owner
        self.hub = hub
        self.send = send
        self.sendFrame = sendFrame
        self.canSend = canSend
        self.onEnded = onEnded
        queue = DispatchQueue(label: "streamd.subscription.\(id)")
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// Marks each subscription's queue, so `waitForDelivery` called on it does not wait for itself.
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private var isOnQueue: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) }

    /// Starts observing the stream and resolves `start`; returns the first sequence to deliver.
    ///
    /// Nothing is sent until `activate`, so the caller can send `SUBSCRIBED` first. A stream that
    /// does not exist is `stream_not_found` (subscribing does not create streams, publishing does).
    func open(from start: StartPosition, credit: UInt32) throws -> UInt64 {
        try StreamName.validate(stream)
        // Observe before resolving the start: every later commit is then seen, at least as `lastSeen`.
        // On the committing thread when few follow the stream: a subscription that keeps up sends at
        // once (written at once when its connection shares the committing loop), one that must read
        // hands over to its queue.
        let observation = try hub.log.observeAppendsImmediately(to: stream) { [weak self] append in self?.receiveLive(append) }
        do {
            let next = try hub.log.startSequence(of: stream, from: start)
            state.withLock { state in
                state.nextSequence = next
                state.credit = UInt64(credit)
                state.observation = observation
            }
            hub.register(self)
            return next
        } catch {
            observation.cancel()
            throw error
        }
    }

    /// Lets the subscription send, once `SUBSCRIBED` is out.
    func activate() {
        pumpOnQueue { $0.started = true }
    }

    /// Starts sending again after the connection's output drained (see `canSend`).
    func resume() {
        pumpOnQueue { _ in }
    }

    /// Adds `credit` events the client is ready for.
    func addCredit(_ credit: UInt32) {
        pumpOnQueue { state in
            let (sum, overflow) = state.credit.addingReportingOverflow(UInt64(credit))
            state.credit = overflow ? .max : sum
        }
    }

    /// Applies `change`, then runs the pump on the subscription's queue unless one is running.
    private func pumpOnQueue(after change: (inout SubscriptionState) -> Void) {
        let schedule = state.withLock { state in
            change(&state)
            return state.claimPump()
        }
        if schedule { queue.async { self.pump() } }
    }

    /// Ends the subscription: no frame of it follows, except `SUBSCRIPTION_ENDED` answering
    /// `replyTo` when it is given. Returns false if it had ended already.
    @discardableResult
    func end(reason: SubscriptionEndReason, message: String, replyTo requestID: UInt32?) -> Bool {
        guard finish() else { return false }
        gate.waitForSendInProgress()
        if let requestID { send(.subscriptionEnded(subscriptionID: id, reason: reason, message: message), requestID) }
        return true
    }

    /// Returns once the delivery work queued so far has run (for tests).
    func waitForDelivery() {
        if !isOnQueue { queue.sync {} }
        gate.waitForSendInProgress()
    }

    /// Live events held in memory, for tests of the bound.
    var bufferedEventCount: Int { state.withLock { $0.buffer.count } }

    /// Whether live events are buffered (true) or read from the log (false).
    var isAttached: Bool { state.withLock { $0.attached } }

    /// Whether it ended.
    var isEnded: Bool { state.withLock { $0.ended } }

    // MARK: Delivery

    private func finish() -> Bool {
        let observation: AppendObservation?? = state.withLock { state in
            guard !state.ended else { return .none }
            state.ended = true
            state.dropBuffer()
            defer { state.observation = nil }
            return .some(state.observation)
        }
        guard case let .some(observation) = observation else { return false }
        observation?.cancel()
        hub.unregister(self)
        onEnded(self)
        return true
    }

    /// Takes a live commit. A subscription that keeps up sends it at once, on the log's notification
    /// thread, saving a hop to its queue; one that must read the log first goes on on its queue.
    private func receiveLive(_ append: CommittedAppend) {
        let limits = hub.limits
        let (claimed, detachedAt) = state.withLock { state -> (Bool, UInt64?) in
            guard !state.ended else { return (false, nil) }
            let wasAttached = state.attached
            for event in append.events { state.offer(event, limits: limits) }
            return (state.claimPump(), wasAttached && !state.attached ? state.nextSequence : nil)
        }
        if let detachedAt { hub.subscriberLog.fellBehind(self, readingFrom: detachedAt) }
        if claimed { pump(readingAllowed: false) }
    }

    /// Sends what credit allows, from the buffer or the log, until there is nothing to send. The
    /// caller holds the pump's claim (`claimPump`), so one pump runs at a time, on whatever thread.
    /// Without `readingAllowed` (on the notification thread), the first read of the log hands the
    /// claim over to the queue.
    private func pump(readingAllowed: Bool = true) {
        let limits = hub.limits
        var emptyReads = 0
        while true {
            // A connection whose output is backed up gets nothing more until `resume`: the live
            // buffer fills and drops, and the subscription later catches up from the log, so a
            // subscriber that stops reading holds no more than its buffer in the daemon's memory.
            let step = state.withLock { state -> SubscriptionState.Step in
                guard canSend() else {
                    state.pumpScheduled = false
                    return .stop
                }
                return state.nextStep(limits: limits)
            }
            switch step {
            case .stop:
                return
            case let .deliver(events):
                deliver(events)
            case let .read(from, limit):
                guard readingAllowed else {
                    queue.async { self.pump() }
                    return
                }
                // Events read from the log go straight into their frame: one copy of each payload. A
                // full frame goes out at once, and the read goes on while the connection takes more.
                var frame = EventsFrameBuilder(subscriptionID: id, requestID: requestID, capacity: 64 * 1024)
                var last: UInt64?
                var read = 0
                var held = false
                do {
                    try hub.log.read(stream, from: .from(sequence: from), expecting: limit) { event in
                        // Checked before adding, so a frame never grows past the byte budget by a large
                        // event: that one waits for the next frame, where it may go alone.
                        if frame.isFull(adding: event.payload.count, limits: limits) {
                            guard sendRead(frame, last: last!) else {
                                held = true
                                return false
                            }
                            frame = EventsFrameBuilder(subscriptionID: id, requestID: requestID, capacity: 64 * 1024)
                        }
                        try frame.append(sequence: event.sequence, timestamp: event.timestamp, kind: EventKindMapping.wireKind(event.kind), payload: event.payload)
                        last = event.sequence
                        read += 1
                        return read < limit
                    }
                } catch {
                    endFromPump(error)
                    return
                }
                // A frame sent mid-read found the subscription ended or the connection backed up.
                if held { continue }
                let outcome = state.withLock { $0.afterRead(count: frame.count, last: last, retry: emptyReads < 3) }
                switch outcome {
                case .stop: return
                case .deliver:
                    hub.metrics.deliveredEvents.increment(by: Int64(frame.count))
                    send(frame: frame.finished())
                case .retry: emptyReads += 1
                case .attached: break
                }
            }
        }
    }

    /// Accounts for and sends a frame filled by a read of the log that goes on; whether the read
    /// may go on (the subscription did not end, and the connection takes more).
    private func sendRead(_ frame: EventsFrameBuilder, last: UInt64) -> Bool {
        guard case .deliver = state.withLock({ $0.afterRead(count: frame.count, last: last, retry: false) }) else { return false }
        hub.metrics.deliveredEvents.increment(by: Int64(frame.count))
        send(frame: frame.finished())
        return canSend()
    }

    private func deliver(_ events: [LogEvent]) {
        var frame = EventsFrameBuilder(subscriptionID: id, requestID: requestID, capacity: 64 + events.reduce(0) { $0 + $1.payload.count + 21 })
        for event in events {
            event.payload.withUnsafeBytes { payload in
                // A payload the log accepted fits the wire's u32 length.
                try? frame.append(sequence: event.sequence, timestamp: event.timestamp, kind: EventKindMapping.wireKind(event.kind), payload: payload)
            }
        }
        hub.metrics.deliveredEvents.increment(by: Int64(events.count))
        send(frame: frame.finished())
    }

    /// Sends an `EVENTS` frame unless the subscription ended meanwhile. `end` waits for a send in
    /// progress (on another thread) before it answers, so no frame follows `SUBSCRIPTION_ENDED`.
    private func send(frame: [UInt8]) {
        gate.send(if: { !state.withLock { $0.ended } }) { sendFrame(frame) }
    }

    /// Ends after a failed read; on the queue, so it must not wait for the queue.
    private func endFromPump(_ error: any Error) {
        state.withLock { $0.pumpScheduled = false }
        guard finish() else { return }
        let reason: SubscriptionEndReason
        let message: String
        if let error = error as? EventLogError, error.code == .streamNotFound {
            (reason, message) = (.streamDeleted, "the stream \"\(stream)\" no longer exists.")
        } else {
            (reason, message) = (.error, ServerError.from(error).message)
        }
        send(.subscriptionEnded(subscriptionID: id, reason: reason, message: message), requestID)
    }
}
