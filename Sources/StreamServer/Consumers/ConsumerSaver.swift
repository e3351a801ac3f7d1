import Dispatch
import EventLog
import Synchronization

/// Stores changed consumers in the log: all that changed meanwhile in one transaction, one save at a
/// time, on its own queue, and saves at least `interval` apart, so a thousand acknowledgements cost a
/// commit rather than a thousand (each save is a transaction of the log's writer, between its commits).
///
/// A caller may ask to be told when its change is stored: it is told after the first save that began
/// after it asked, with that save's error if it failed.
/// Thread-safety: Sendable; every method may be called from any thread but its own queue.
final class ConsumerSaver: Sendable {
    private struct State {
        var changed: [ObjectIdentifier: ServedConsumer] = [:]
        var waiting: [@Sendable ((any Error)?) -> Void] = []
        var saving = false
    }

    private let log: any ServedLog
    /// The lease this daemon serves its consumers under, renewed by each save.
    private let lease: ConsumerLease
    /// Told of consumers whose save found another daemon holding them.
    private let lost: @Sendable ([ConsumerRecord]) -> Void
    /// The shortest time from the start of one save to the start of the next.
    private let interval: UInt64
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "streamd.consumer-saver")

    /// A saver into `log`, starting saves at least `interval` apart (2 ms by default: what an
    /// acknowledgement waits at most besides the save itself).
    init(log: any ServedLog, lease: ConsumerLease, interval: Duration = .milliseconds(2), lost: @escaping @Sendable ([ConsumerRecord]) -> Void) {
        self.log = log
        self.lease = lease
        self.lost = lost
        self.interval = UInt64(interval.components.seconds) * 1_000_000_000 + UInt64(interval.components.attoseconds / 1_000_000_000)
    }

    /// Notes that `consumer` changed; `stored`, when given, is called once the change is stored.
    func changed(_ consumer: ServedConsumer, then stored: (@Sendable ((any Error)?) -> Void)?) {
        let start = state.withLock { state -> Bool in
            state.changed[ObjectIdentifier(consumer)] = consumer
            if let stored { state.waiting.append(stored) }
            guard !state.saving else { return false }
            state.saving = true
            return true
        }
        if start { queue.async { self.saveWhileChanged() } }
    }

    /// Stores `consumer` and returns once it is stored.
    func store(_ consumer: ServedConsumer) throws {
        let outcome = Mutex<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        changed(consumer) { error in
            outcome.withLock { $0 = .some(error) }
            done.signal()
        }
        done.wait()
        if let error = outcome.withLock({ $0 }) ?? nil { throw error }
    }

    /// Runs `work` between saves (a deletion, which no save begun earlier may undo).
    func betweenSaves<R: Sendable>(_ work: () throws -> R) throws -> R {
        try queue.sync { try work() }
    }

    /// Saves what changed; while more changes come, saves again, `interval` after this save began.
    private func saveWhileChanged() {
        let began = DispatchTime.now().uptimeNanoseconds
        let (consumers, waiting) = state.withLock { state -> ([ServedConsumer], [@Sendable ((any Error)?) -> Void]) in
            defer {
                state.changed = [:]
                state.waiting = []
            }
            return (Array(state.changed.values), state.waiting)
        }
        var failure: (any Error)?
        do {
            let taken = try log.saveConsumers(consumers.filter { !$0.isClosed }.map(\.record), under: lease)
            if !taken.isEmpty { lost(taken) }
        } catch {
            failure = error
        }
        for stored in waiting { stored(failure) }
        let more = state.withLock { state -> Bool in
            if state.changed.isEmpty { state.saving = false }
            return state.saving
        }
        if more { queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: began + interval)) { self.saveWhileChanged() } }
    }
}
