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

    package init(stream: String, firstSequence: UInt64, lastSequence: UInt64, timestamp: Int64, events: [LogEvent], streamCreated: Int64) {
        self.stream = stream
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.timestamp = timestamp
        self.events = events
        self.streamCreated = streamCreated
    }
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
/// An observer registered `immediately` is called instead on the thread that committed, before the
/// appends are answered, with no hop through the queue (a thread woken for nothing but passing the
/// events on): for short callbacks that neither block nor touch the log (streamd's subscriptions,
/// which hand the events to their connection). While a stream has more than `immediateLimit` of them
/// they go through the queue too, so a commit watched by a crowd does not hold up the next one.
/// Thread-safety: Sendable; all state sits behind a Mutex, and callbacks run outside it.
package final class AppendObservers: Sendable {
    private struct Handler {
        let id: UInt64
        let immediately: Bool
        let call: @Sendable (CommittedAppend) -> Void
    }
    private struct State {
        var nextID: UInt64 = 0
        /// Each observed stream's handlers, in the order they were registered.
        var byStream: [String: [Handler]] = [:]
        var streamOf: [UInt64: String] = [:]
    }
    /// The most immediate observers of one stream called on the committing thread.
    static let immediateLimit = 4

    private let state = Mutex(State())
    private let count = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "streamd.eventlog.observers")
    private static let onQueue = DispatchSpecificKey<Bool>()

    package init() { queue.setSpecific(key: AppendObservers.onQueue, value: true) }

    package func add(stream: String, immediately: Bool = false, _ handler: @escaping @Sendable (CommittedAppend) -> Void) -> AppendObservation {
        let id = state.withLock { state in
            state.nextID += 1
            state.byStream[stream, default: []].append(Handler(id: state.nextID, immediately: immediately, call: handler))
            state.streamOf[state.nextID] = stream
            return state.nextID
        }
        count.add(1, ordering: .relaxed)
        return AppendObservation(id: id, registry: self)
    }

    func remove(_ id: UInt64) {
        let removed = state.withLock { state -> Bool in
            guard let stream = state.streamOf.removeValue(forKey: id) else { return false }
            state.byStream[stream]?.removeAll { $0.id == id }
            if state.byStream[stream]?.isEmpty == true { state.byStream[stream] = nil }
            return true
        }
        if removed { count.subtract(1, ordering: .relaxed) }
    }

    /// Cheap check the writer makes before building any notification.
    package var isObserved: Bool { count.load(ordering: .relaxed) > 0 }

    package func isObserved(_ stream: String) -> Bool { state.withLock { $0.byStream[stream] != nil } }

    /// Queues delivery of the events `receipt` numbers (of `kind`, with `payloads`) to the stream's
    /// observers, if it has any; `streamCreated` says which life of the stream they belong to.
    package func deliver(_ receipt: AppendReceipt, kind: LogEvent.Kind, payloads: [[UInt8]], streamCreated: Int64) {
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

    /// Delivers `append` to the stream's observers registered when it committed: the immediate ones
    /// here, the others through the queue.
    package func deliver(_ append: CommittedAppend) {
        let handlers = state.withLock { $0.byStream[append.stream] ?? [] }
        guard !handlers.isEmpty else { return }
        let inline = handlers.count { $0.immediately } <= Self.immediateLimit
        let queued = inline ? handlers.filter { !$0.immediately } : handlers
        if !queued.isEmpty {
            queue.async {
                for handler in queued { handler.call(append) }
            }
        }
        if inline { for handler in handlers where handler.immediately { handler.call(append) } }
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
