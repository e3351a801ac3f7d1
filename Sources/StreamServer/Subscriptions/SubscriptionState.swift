import EventLog

/// The delivery state of one subscription: position, credit, and the bounded live buffer.
///
/// A value type kept in the subscription's Mutex; every decision is a method here, so the rules of
/// buffering and catching up are in one place.
struct SubscriptionState {
    /// What the delivery loop does next.
    enum Step {
        case stop
        case deliver([LogEvent])
        case read(from: UInt64, limit: Int)
    }

    /// What follows a read of the log.
    enum AfterRead: Equatable {
        case stop, deliver, retry, attached
    }

    var started = false
    var ended = false
    /// The sequence of the next event to send.
    var nextSequence: UInt64 = 0
    var credit: UInt64 = 0
    /// True while every live event from `nextSequence` on is in `buffer`; false while the log must be read.
    var attached = false
    var buffer: [LogEvent] = []
    var bufferedBytes = 0
    /// The highest sequence any live commit carried.
    var lastSeen: UInt64 = 0
    var pumpScheduled = false
    var observation: AppendObservation?

    /// Whether the caller must schedule the delivery loop (it was idle and has work it may do).
    mutating func claimPump() -> Bool {
        guard started, !ended, credit > 0, !pumpScheduled else { return false }
        pumpScheduled = true
        return true
    }

    /// Takes a live event: buffered if it follows the buffer and fits, else the buffer is dropped.
    mutating func offer(_ event: LogEvent, limits: ServerLimits) {
        lastSeen = max(lastSeen, event.sequence)
        guard attached else { return }
        let expected = buffer.last.map { $0.sequence + 1 } ?? nextSequence
        guard event.sequence >= expected else { return }
        let fits = buffer.count < limits.maximumBufferedEvents
            && (buffer.isEmpty || bufferedBytes + event.payload.count <= limits.maximumBufferedBytes)
        if event.sequence == expected, fits {
            buffer.append(event)
            bufferedBytes += event.payload.count
        } else {
            attached = false
            dropBuffer()
        }
    }

    mutating func dropBuffer() {
        buffer = []
        bufferedBytes = 0
    }

    /// The most frames one read of the log fills: each read costs a query (PostgreSQL) or a seek
    /// (SQLite), so a subscriber catching up with credit to spare gets several frames a read.
    static let framesPerRead: UInt64 = 8

    /// The next step of the delivery loop; `.stop` also marks the loop idle.
    mutating func nextStep(limits: ServerLimits) -> Step {
        guard started, !ended, credit > 0 else {
            pumpScheduled = false
            return .stop
        }
        let perFrame = UInt64(max(1, limits.maximumEventsPerFrame))
        let limit = Int(min(credit, perFrame))
        // A read from the log fills up to `framesPerRead` frames, as the credit allows.
        guard attached else { return .read(from: nextSequence, limit: Int(min(credit, perFrame * Self.framesPerRead))) }
        guard !buffer.isEmpty else {
            pumpScheduled = false
            return .stop
        }
        var count = 0, bytes = 0
        while count < min(limit, buffer.count), count == 0 || bytes + buffer[count].payload.count <= limits.maximumEventBytesPerFrame {
            bytes += buffer[count].payload.count
            count += 1
        }
        let taken = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        bufferedBytes -= bytes
        nextSequence = taken[taken.count - 1].sequence + 1
        credit -= UInt64(count)
        return .deliver(taken)
    }

    /// Accounts for `count` events read from the log (at most the credit), the last with sequence
    /// `last`; when the read found nothing the subscription re-attaches, unless a commit it has not
    /// read yet was announced meanwhile.
    mutating func afterRead(count: Int, last: UInt64?, retry: Bool) -> AfterRead {
        guard !ended else {
            pumpScheduled = false
            return .stop
        }
        if let last, count > 0 {
            nextSequence = last + 1
            credit -= UInt64(count)
            return .deliver
        }
        if lastSeen >= nextSequence, retry { return .retry }
        attached = true
        dropBuffer()
        return .attached
    }
}
