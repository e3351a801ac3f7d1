import Reactive
import Synchronization

/// A replay subject backed by a named stream of an `EventLog`: values (and the terminal event) sent to
/// it are appended durably, and every new observer, in this process or in a later one that opens the
/// same database, first receives the stream's retained history and then the live values, with nothing
/// missed or doubled at the hand-over.
///
/// - Writing: `append(_:)` appends and returns the receipt once the commit is durable and every
///   current observer has received the value (read your writes), in sequence order and exactly once,
///   after any earlier commit of another writer the live feed had not delivered yet; an observer added
///   after it replays it before `observe` returns. (Across a deletion and re-creation of the stream
///   while the subject is open, the value comes from the live feed instead.) Called from inside one of this
///   subject's own observer callbacks, `append` returns at once after the commit and the observers
///   receive the value right after the event being delivered, before that delivery returns (waiting
///   there would wait for itself). `send(_:)` (the `Subject` conformance, used by multicast connections)
///   appends and, if the log refuses the append (a full disk, say), fails the subject's observers
///   with a `StreamFailure` of origin `.storage`, since the value is lost.
/// - Reading: `observe` returns once the history has been delivered (from inside one of the subject's
///   own callbacks, it is delivered right after the current event instead). A new observer gets the
///   stored events from the subject's `replay` position (by default
///   the stream's own replay policy: its capacity keeps the last N, replay-last keeps one) up to the last
///   live event, then the live events. The history is read from disk in blocks, so memory stays bounded
///   however long it is; while it is read, live delivery to the other observers waits (under the
///   subject's gate), so replays of very long histories are best taken by producers started early.
/// - Live events are the stream's commits made through this process's `EventLog`, by this subject or
///   any other writer of the stream in the process; another process's appends reach a subject through
///   `streamd`, not through the file. Commits by other writers reach the observers from the log's
///   notification queue just after they are acknowledged; `flush()` waits for those.
/// - Reentrancy: `append` takes the subject's gate like any send. It never waits for the log's
///   notification queue, so it may be called from any thread, from inside any observer callback, and
///   from the notification queue. The one way to deadlock is the one every locking stream library
///   has: two threads, each inside a delivery of a different subject, each appending to the other.
/// - Failures are stored as messages (`StreamFailure`); a stored value that no longer decodes fails that
///   observer (replay) or every observer (live) with origin `.storage`.
///
/// Thread-safety: every member may be called from any thread; events are delivered as `Signal`'s are.
public final class PersistentReplaySubject<Value: Codable & Sendable>: Subject {
    /// Failures are stored as messages.
    public typealias Failure = StreamFailure

    /// The subject's events: history, then live. Observing it is observing the subject.
    public let signal: Signal<Value, StreamFailure>

    /// The log this subject's stream lives in.
    public let log: EventLog
    /// The stream's name.
    public let stream: String
    /// Where a new observer's replay starts.
    public let replay: StartPosition
    /// How values are stored.
    public let codec: any EventCodec

    private let live: GatedInput<Value, StreamFailure>
    private let cursor: Cursor
    private let observation: AppendObservation

    /// Opens (creating if needed) `stream` in `log` as a replay subject.
    ///
    /// - Parameters:
    ///   - log: the log the stream lives in.
    ///   - stream: the stream's name.
    ///   - policy: the stream's policy if it is created here (an existing stream keeps its own).
    ///   - replay: where a new observer's replay starts; the stream's replay policy by default.
    ///   - codec: how values are stored; JSON by default.
    /// - Throws: `EventLogError` if the stream cannot be opened (an invalid name, a closed log, …).
    public init(
        log: EventLog, stream: String, policy: StreamPolicy = StreamPolicy(),
        replay: StartPosition = .streamDefault, codec: any EventCodec = JSONEventCodec()
    ) throws {
        try log.ensureStream(stream, policy: policy)
        let cursor = Cursor()
        let (signal, live) = Signal<Value, StreamFailure>.withHistory { observer in
            Self.replayHistory(to: observer, log: log, stream: stream, from: replay, through: cursor.delivered, codec: codec)
        }
        self.signal = signal
        self.live = live
        self.cursor = cursor
        self.log = log
        self.stream = stream
        self.replay = replay
        self.codec = codec
        // Live first, then the baseline: every commit is either at or below the baseline, and so on disk
        // for replays, or delivered live.
        observation = log.observeAppends(to: stream) { [live, cursor, codec] append in
            live.withGate { input in
                cursor.enter(life: append.streamCreated)
                Self.deliver(append.events, through: input, cursor: cursor, codec: codec)
            }
        }
        let info = try log.catalogEntry(stream)
        live.withGate { _ in
            cursor.enter(life: info?.created ?? 0)
            if cursor.life == info?.created { cursor.delivered = max(cursor.delivered, info?.lastSequence ?? 0) }
        }
    }

    deinit { observation.cancel() }

    /// Appends `value` and returns once its commit is durable and every observer has received it (from
    /// inside one of this subject's observer callbacks: right after the event being delivered).
    ///
    /// - Throws: `EventLogError` (`diskFull`, `streamEnded`, `closed`, …); nothing is stored then.
    @discardableResult
    public func append(_ value: Value) throws -> AppendReceipt {
        let payload = try codec.encode(value)
        return deliverOwn(try log.append(payload, to: stream), kind: .value, payload: payload)
    }

    /// Stores the stream's completion and returns once every observer has completed (from inside one
    /// of this subject's observer callbacks: right after the event being delivered).
    @discardableResult
    public func appendCompleted() throws -> AppendReceipt {
        deliverOwn(try log.appendCompleted(to: stream), kind: .completed, payload: [])
    }

    /// Stores the stream's failure and returns once every observer has failed with it (from inside one
    /// of this subject's observer callbacks: right after the event being delivered).
    @discardableResult
    public func appendFailed(_ failure: StreamFailure) throws -> AppendReceipt {
        let message = Array(failure.message.utf8)
        return deliverOwn(try log.appendFailed(to: stream, message: failure.message), kind: .failed, payload: message)
    }

    /// Waits until every event committed so far, by any writer in this process, has reached this
    /// subject's observers (the log queues its live feed before it acknowledges an append). Not needed
    /// after this subject's own `append`, which returns after the delivery.
    ///
    /// Not for use inside an observer callback of a persistent subject, where it could wait for the
    /// delivery it is part of; from the log's notification queue itself it returns at once.
    public func flush() {
        log.waitForObservers()
    }

    /// Stores `event` (see `append`); if the log refuses it, the observers fail with origin `.storage`.
    public func send(_ event: Event<Value, StreamFailure>) {
        do {
            switch event {
            case let .value(value): try append(value)
            case .completed: try appendCompleted()
            case let .failed(failure): try appendFailed(failure)
            case .interrupted: live.withGateNeverWaiting { $0.sendInterrupted() }
            }
        } catch {
            live.withGate { $0.send(error: StreamFailure(storage: error)) }
        }
    }

    /// Delivers this subject's own commit to its observers before `append` returns (read your writes),
    /// under the gate: from the commit itself when it is the next event, else from disk, from the
    /// cursor on through the receipt (commits of other writers the feed has not delivered yet). The feed
    /// delivers the same events later and skips them, as they are at or below the cursor.
    ///
    /// Only within the life of the stream the cursor follows, and only when the commit is in it (it is
    /// no older than that life, which is still the stream's after the commit): a stream deleted and
    /// created again meanwhile is left to the feed, which crosses lives in commit order.
    private func deliverOwn(_ receipt: AppendReceipt, kind: LogEvent.Kind, payload: [UInt8]) -> AppendReceipt {
        guard let life = try? log.catalogEntry(stream)?.created, life != 0, receipt.timestamp >= life else {
            return receipt
        }
        let (log, stream, cursor, codec) = (log, stream, cursor, codec)
        live.withGate { input in
            guard cursor.life == life, receipt.lastSequence > cursor.delivered else { return }
            if receipt.firstSequence == cursor.delivered + 1, receipt.firstSequence == receipt.lastSequence {
                let event = LogEvent(sequence: receipt.firstSequence, timestamp: receipt.timestamp, kind: kind, payload: payload)
                Self.deliver([event], through: input, cursor: cursor, codec: codec)
            } else {
                Self.catchUp(through: receipt.lastSequence, input: input, log: log, stream: stream, cursor: cursor, codec: codec)
            }
        }
        return receipt
    }

    /// Delivers the stored events right after the cursor through `last`, read from disk a block at a
    /// time; stops at the first one missing (dropped by retention, say), which the feed delivers from
    /// memory instead, so nothing is skipped. Runs under the gate.
    private static func catchUp(
        through last: UInt64, input: RelayInput<Value, StreamFailure>, log: EventLog, stream: String, cursor: Cursor,
        codec: any EventCodec
    ) {
        try? log.read(stream, from: .from(sequence: cursor.delivered + 1)) { stored in
            guard stored.sequence == cursor.delivered + 1, stored.sequence <= last else { return false }
            let event = decode(stored.copy(), codec: codec)
            cursor.delivered = stored.sequence
            input.send(event)
            return !event.isTerminating
        }
    }

    /// Delivers the events past the cursor, in order, and moves the cursor; runs under the gate.
    private static func deliver(
        _ events: [LogEvent], through input: RelayInput<Value, StreamFailure>, cursor: Cursor, codec: any EventCodec
    ) {
        for event in events where event.sequence > cursor.delivered {
            cursor.delivered = event.sequence
            input.send(decode(event, codec: codec))
        }
    }

    /// Sends the stored events from `position` through `last` to one new observer; runs under the
    /// gate. Returns whether it sent a terminal event.
    private static func replayHistory(
        to observer: HistoryReplay<Value, StreamFailure>, log: EventLog, stream: String,
        from position: StartPosition, through last: UInt64, codec: any EventCodec
    ) -> Bool {
        var ended = false
        do {
            try log.read(stream, from: position) { stored in
                guard stored.sequence <= last, observer.isActive else { return false }
                let event = decode(stored.copy(), codec: codec)
                observer.send(event)
                ended = event.isTerminating
                return !ended
            }
        } catch {
            observer.send(.failed(StreamFailure(storage: error)))
            return true
        }
        return ended
    }

    private static func decode(_ event: LogEvent, codec: any EventCodec) -> Event<Value, StreamFailure> {
        switch event.kind {
        case .completed:
            return .completed
        case .failed:
            return .failed(StreamFailure(event.failureMessage ?? ""))
        case .value:
            do {
                return .value(try codec.decode(Value.self, from: event.payload))
            } catch {
                return .failed(StreamFailure(
                    origin: .storage,
                    message: "event \(event.sequence) does not decode as \(Value.self) with the \(codec.name) codec: \(error)"))
            }
        }
    }
}

/// The sequence of the last event delivered to a persistent subject's live observers, and which life
/// of the stream it counts in.
///
/// `@unchecked Sendable` is sound because its fields are read and written only under the subject's
/// gate (inside `GatedInput.withGate` work or the history replay, which also runs under it).
private final class Cursor: @unchecked Sendable {
    var delivered: UInt64 = 0
    /// The stream's creation time (`StreamInfo.created`); 0 until known.
    var life: Int64 = 0

    /// Follows the stream into `life`: a stream deleted and created again numbers from 1 anew.
    func enter(life: Int64) {
        guard life != self.life, life != 0 else { return }
        if self.life != 0 { delivered = 0 }
        self.life = life
    }
}
