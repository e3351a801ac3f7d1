import EventLog

/// The message ids a stream has stored recently, with the sequence and timestamp each one got.
///
/// Bounded four ways: by the stream's `DeduplicationWindow` (`bounds`: the ids of its last `events`
/// sequences, stored within its `duration`), by `byteLimit` bytes for this stream, and by the hub's
/// `shared` budget over every stream. An id costs its UTF-8 length plus `overheadPerID`; a new id
/// forgets this window's oldest ones until it fits its own limits. Its bytes are taken from `shared`
/// even past that budget's limit: the hub then trims the largest windows (`forgetOldest(bytes:)`)
/// right after the publish, outside this window's lock. The log stores the ids too: a window starts
/// from what it kept (`load`, which also sets the bounds), so a restart forgets none; and an id
/// forgotten for lack of room while its event may still be among the last `events` is still in the
/// log, which the hub asks whenever `mayHaveForgotten` says so. Call `forgetAll()` before dropping a
/// window, to give its bytes back to `shared`, and when its stream's window changes. Publishes
/// without ids move the window too: the hub tells it the stream's last sequence (`advance`) before
/// it answers.
/// A value type; the hub keeps it under the stream's lock.
struct RememberedMessageIDs {
    struct Original: Equatable {
        let sequence: UInt64
        let timestamp: Int64
    }

    /// About the bytes a remembered id costs beyond its own: its dictionary entry, its place in the
    /// order and the string's header.
    static let overheadPerID = 80

    /// The stream's window, as the log keeps it.
    private(set) var bounds: DeduplicationWindow
    let byteLimit: Int
    private let shared: ByteBudget?
    private var originals: [String: Original] = [:]
    /// The ids in the order they were remembered, with the sequence each had then: an id stored again
    /// (after it left the window) has a newer entry, and its older one is skipped.
    private var order: [(id: String, sequence: UInt64)] = []
    private var oldest = 0
    /// The bytes the remembered ids cost, as `overheadPerID` counts them.
    private(set) var bytes = 0
    /// Whether the ids the log kept were loaded.
    private(set) var isLoaded = false
    /// The latest sequence whose id was forgotten for lack of room (0: none), and the stream's last
    /// sequence as far as this window knows.
    private var forgottenForRoom: UInt64 = 0
    private var latest: UInt64 = 0

    init(within bounds: DeduplicationWindow, byteLimit: Int = .max, shared: ByteBudget? = nil) {
        self.bounds = bounds
        self.byteLimit = max(0, byteLimit)
        self.shared = shared
    }

    /// The number of ids remembered.
    var count: Int { originals.count }

    /// More ids than a window of `byteLimit` bytes can hold (each costs more than `overheadPerID`):
    /// what loading reads of the log at most.
    static func mostIDs(in byteLimit: Int) -> Int { max(1, byteLimit / overheadPerID) }

    /// The original publish of `id`, if it is remembered and still within the window at `now`
    /// (microseconds since the epoch), the stream having reached the last sequence `advance` gave.
    func original(of id: String, at now: Int64) -> Original? {
        guard let original = originals[id], !Self.passed(original.sequence, latest, bounds),
            original.timestamp >= bounds.cutoff(lastSequence: latest, now: now).sinceTimestamp
        else { return nil }
        return original
    }

    /// Whether an id missing here may still be kept by the log: one was forgotten for lack of room
    /// while its event was among the stream's last `bounds.events` (as far as this window has seen).
    var mayHaveForgotten: Bool { forgottenForRoom > 0 && !Self.passed(forgottenForRoom, latest, bounds) }

    /// The bytes remembering `id` costs.
    static func cost(of id: String) -> Int { id.utf8.count + overheadPerID }

    /// Remembers the ids the log kept (oldest first), before any other, within `bounds`.
    mutating func load(_ stored: [StoredMessageID], within bounds: DeduplicationWindow) {
        self.bounds = bounds
        for id in stored { remember(id.id, sequence: id.sequence, timestamp: id.timestamp) }
        isLoaded = true
    }

    /// Learns that the stream reached `lastSequence` (publishes without ids move it too), forgetting
    /// the ids whose events left the window by count.
    mutating func advance(to lastSequence: UInt64) {
        latest = max(latest, lastSequence)
        while let first = front(), Self.passed(first.original.sequence, latest, bounds) { forgetOldest(forRoom: false) }
    }

    /// Remembers that `id` was stored as `sequence` at `timestamp` (after every id remembered before),
    /// forgetting the oldest ids as needed; an id remembered from an earlier publish (it had left the
    /// window when it was stored again) takes its new sequence and timestamp.
    mutating func remember(_ id: String, sequence: UInt64, timestamp: Int64) {
        guard bounds.events != 0 else { return }
        let cost = Self.cost(of: id)
        latest = max(latest, sequence)
        guard cost <= byteLimit else {
            // Too large to hold at all: forgotten at once, for lack of room.
            forgottenForRoom = max(forgottenForRoom, sequence)
            return
        }
        let since = bounds.cutoff(lastSequence: sequence, now: timestamp).sinceTimestamp
        while let first = front() {
            let passed = Self.passed(first.original.sequence, sequence, bounds) || first.original.timestamp < since
            guard passed || (originals[id] == nil && bytes + cost > byteLimit) else { break }
            forgetOldest(forRoom: !passed)
        }
        if originals[id] == nil {
            shared?.force(cost)
            bytes += cost
        }
        originals[id] = Original(sequence: sequence, timestamp: timestamp)
        order.append((id, sequence))
    }

    /// Whether `sequence` is out of a window of `bounds` over a stream whose last sequence is
    /// `latest`: the window holds the sequences after `latest - events`.
    private static func passed(_ sequence: UInt64, _ latest: UInt64, _ bounds: DeduplicationWindow) -> Bool {
        guard let events = bounds.events else { return false }
        return latest >= sequence && latest - sequence >= events
    }

    /// Forgets every id, gives their bytes back, and reads the log again before it next answers (with
    /// the stream's window then).
    mutating func forgetAll() {
        shared?.give(bytes)
        originals = [:]
        order = []
        oldest = 0
        bytes = 0
        forgottenForRoom = 0
        latest = 0
        isLoaded = false
    }

    /// Forgets the oldest ids until at least `bytes` are given back (or none is left); returns the
    /// bytes given back.
    @discardableResult
    mutating func forgetOldest(bytes wanted: Int) -> Int {
        let before = bytes
        while count > 0, before - bytes < wanted { forgetOldest(forRoom: true) }
        return before - bytes
    }

    /// The oldest id still remembered, skipping (and dropping) entries of ids remembered again since.
    private mutating func front() -> (id: String, original: Original)? {
        while oldest < order.count {
            let (id, sequence) = order[oldest]
            if let original = originals[id], original.sequence == sequence { return (id, original) }
            oldest += 1
        }
        return nil
    }

    private mutating func forgetOldest(forRoom: Bool) {
        guard let (id, original) = front() else { return }
        if forRoom { forgottenForRoom = max(forgottenForRoom, original.sequence) }
        oldest += 1
        originals[id] = nil
        let cost = Self.cost(of: id)
        bytes -= cost
        shared?.give(cost)
        // Drop the forgotten front now and then, so `order` stays about as long as the window.
        if oldest >= 64, oldest * 2 >= order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
    }
}
