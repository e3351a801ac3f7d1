import Reactive
import Synchronization

/// A replay subject backed by a named stream of an `EventLog`: values (and the terminal event) sent to
/// it are appended durably, and every new observer, in this process or in a later one that opens the
/// same database, first receives the stream's retained history and then the live values, with nothing
/// missed or doubled at the hand-over.
///
/// - Writing: `append(_:)` appends and returns the receipt once the commit is durable. Observers
///   receive the value just after, from the log's live feed, in sequence order and exactly once;
///   `flush()` waits for that. `send(_:)` (the `Subject` conformance, used by multicast connections)
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
///   `streamd`, not through the file.
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

    /// Appends `value` and returns once its commit is durable; observers receive it just after.
    ///
    /// - Throws: `EventLogError` (`diskFull`, `streamEnded`, `closed`, …); nothing is stored then.
    @discardableResult
    public func append(_ value: Value) throws -> AppendReceipt {
        try log.append(codec.encode(value), to: stream)
    }

    /// Stores the stream's completion; observers are completed just after.
    @discardableResult
    public func appendCompleted() throws -> AppendReceipt {
        try log.appendCompleted(to: stream)
    }

    /// Stores the stream's failure; observers fail with it just after.
    @discardableResult
    public func appendFailed(_ failure: StreamFailure) throws -> AppendReceipt {
        try log.appendFailed(to: stream, message: failure.message)
    }

    /// Waits until every event committed so far has reached this subject's observers (the log queues
    /// its live feed before it acknowledges an append).
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
