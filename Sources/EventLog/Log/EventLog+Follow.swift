import Synchronization

extension EventLog {
    /// Delivers the events of `stream` from `position` on, history first and then each new commit, in
    /// sequence order, each exactly once: no gap and no duplicate at the hand-over from disk to live.
    ///
    /// History is delivered on the calling thread before `follow` returns; live events arrive on the
    /// log's notification queue. Commits made while history is being read are held in memory until
    /// the hand-over. Cancel the returned observation to stop.
    ///
    /// - Throws: what `read` throws (`streamNotFound`, `corruptBlock`, …); nothing is followed then.
    public func follow(
        _ stream: String, from position: StartPosition = .streamDefault,
        _ handler: @escaping @Sendable (LogEvent) -> Void
    ) throws -> AppendObservation {
        let hand = HandOver()
        // Live events obey the position as the history read does, so an empty history (a position past
        // the end, or in the future) does not let earlier events through.
        let starts: @Sendable (LogEvent) -> Bool = switch position {
        case let .from(sequence): { $0.sequence >= sequence }
        case let .since(microseconds): { $0.timestamp >= microseconds }
        default: { _ in true }
        }
        // Observe before reading: every commit is then either on disk when read, or in `pending`.
        let observation = observeAppends(to: stream) { append in
            guard let events = hand.live(append) else { return }
            for event in events where starts(event) { handler(event) }
        }
        var delivered: UInt64 = 0
        do {
            try read(stream, from: position) { event in
                handler(event.copy())
                delivered = event.sequence
                return true
            }
        } catch {
            observation.cancel()
            throw error
        }
        let last = delivered
        // Runs after every commit observed so far, so pending is complete when it is flushed.
        observers.enqueue {
            for event in hand.finishHistory(deliveredThrough: last) where starts(event) { handler(event) }
        }
        return observation
    }
}

/// The state of one `follow`: commits seen during the history read, and the last sequence delivered.
///
/// Thread-safety: Sendable; state behind a Mutex; touched by the caller (once) and the serial
/// notification queue.
private final class HandOver: Sendable {
    private struct State {
        var historyDone = false
        var delivered: UInt64 = 0
        var pending: [CommittedAppend] = []
    }
    private let state = Mutex(State())

    /// The events of `append` to deliver now, or nil while the history is still being read.
    func live(_ append: CommittedAppend) -> [LogEvent]? {
        state.withLock { state in
            guard state.historyDone else {
                state.pending.append(append)
                return nil
            }
            let fresh = append.events.filter { $0.sequence > state.delivered }
            if let last = fresh.last { state.delivered = last.sequence }
            return fresh
        }
    }

    /// Ends the history phase: the pending events past `deliveredThrough`, in order.
    func finishHistory(deliveredThrough last: UInt64) -> [LogEvent] {
        state.withLock { state in
            state.historyDone = true
            state.delivered = last
            var fresh: [LogEvent] = []
            for append in state.pending {
                for event in append.events where event.sequence > state.delivered {
                    fresh.append(event)
                    state.delivered = event.sequence
                }
            }
            state.pending = []
            return fresh
        }
    }
}
