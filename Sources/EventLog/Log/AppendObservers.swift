import Dispatch
import Synchronization

/// The events one commit added to one stream, as delivered to live observers.
///
/// Values are immutable and Sendable.
public struct CommittedAppend: Sendable {
    /// The stream appended to.
    public let stream: String
    /// The first sequence of the append.
    public let firstSequence: UInt64
    /// The last sequence of the append.
    public let lastSequence: UInt64
    /// The timestamp all its events got.
    public let timestamp: Int64
    /// The events, in sequence order.
    public let events: [LogEvent]
    /// When the stream was created (see `StreamInfo.created`): which life of the stream this commit
    /// belongs to.
    public let streamCreated: Int64
}

/// A registration made by `EventLog.observeAppends`; cancel it (or let it go) to stop the callbacks.
///
/// Thread-safety: Sendable; `cancel` may be called from any thread, including from inside a callback.
public final class AppendObservation: Sendable {
    private let id: UInt64
    private weak let registry: AppendObservers?

    init(id: UInt64, registry: AppendObservers) {
        self.id = id
        self.registry = registry
    }

    /// Stops further callbacks; ones already running finish.
    public func cancel() { registry?.remove(id) }

    deinit { registry?.remove(id) }
}

/// The live-tail registry: who wants to hear about which stream's commits.
///
/// Callbacks run on one serial queue per log, in commit order, after the commit, never on the writer
/// thread (so a callback may append or read without deadlocking the log). A commit goes to the
/// observers registered when it committed; a cancelled observer may still get commits queued before.
/// Thread-safety: Sendable; all state sits behind a Mutex, and callbacks run outside it.
final class AppendObservers: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var handlers: [UInt64: (stream: String, handler: @Sendable (CommittedAppend) -> Void)] = [:]
        var streams: [String: Int] = [:]
    }
    private let state = Mutex(State())
    private let count = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "streamd.eventlog.observers")
    private static let onQueue = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: AppendObservers.onQueue, value: true) }

    func add(stream: String, _ handler: @escaping @Sendable (CommittedAppend) -> Void) -> AppendObservation {
        let id = state.withLock { state in
            state.nextID += 1
            state.handlers[state.nextID] = (stream, handler)
            state.streams[stream, default: 0] += 1
            return state.nextID
        }
        count.add(1, ordering: .relaxed)
        return AppendObservation(id: id, registry: self)
    }

    func remove(_ id: UInt64) {
        let removed = state.withLock { state -> Bool in
            guard let entry = state.handlers.removeValue(forKey: id) else { return false }
            state.streams[entry.stream, default: 1] -= 1
            if state.streams[entry.stream] == 0 { state.streams[entry.stream] = nil }
            return true
        }
        if removed { count.subtract(1, ordering: .relaxed) }
    }

    /// Cheap check the writer makes before building any notification.
    var isObserved: Bool { count.load(ordering: .relaxed) > 0 }

    func isObserved(_ stream: String) -> Bool { state.withLock { $0.streams[stream] != nil } }

    /// Queues delivery of the events `receipt` numbers (of `kind`, with `payloads`) to the stream's
    /// observers, if it has any; `streamCreated` says which life of the stream they belong to.
    func deliver(_ receipt: AppendReceipt, kind: LogEvent.Kind, payloads: [[UInt8]], streamCreated: Int64) {
        guard isObserved(receipt.stream) else { return }
        var events: [LogEvent] = []
        events.reserveCapacity(payloads.count)
        for (index, payload) in payloads.enumerated() {
            events.append(LogEvent(sequence: receipt.firstSequence + UInt64(index), timestamp: receipt.timestamp, kind: kind, payload: payload))
        }
        deliver(CommittedAppend(
            stream: receipt.stream, firstSequence: receipt.firstSequence, lastSequence: receipt.lastSequence,
            timestamp: receipt.timestamp, events: events, streamCreated: streamCreated))
    }

    /// Queues delivery of `append` to the stream's observers registered when it committed.
    func deliver(_ append: CommittedAppend) {
        let handlers = state.withLock { state in
            state.handlers.sorted { $0.key < $1.key }.compactMap { $0.value.stream == append.stream ? $0.value.handler : nil }
        }
        guard !handlers.isEmpty else { return }
        queue.async {
            for handler in handlers { handler(append) }
        }
    }

    /// Runs `work` on the delivery queue, after every delivery queued before it.
    func enqueue(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    /// Waits until every queued delivery ran (used by `EventLog.close`); a no-op from inside a
    /// callback, where waiting for the queue would wait for itself.
    func drain() {
        guard DispatchQueue.getSpecific(key: AppendObservers.onQueue) == nil else { return }
        queue.sync {}
    }
}
