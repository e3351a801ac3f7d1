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
/// window, to give its bytes back to `shared`, and when its stream's window changes.
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
    private var order: [String] = []
    private var oldest = 0
    /// The bytes the remembered ids cost, as `overheadPerID` counts them.
    private(set) var bytes = 0
    /// Whether the ids the log kept were loaded.
    private(set) var isLoaded = false
    /// The latest sequence whose id was forgotten for lack of room (0: none), and the latest remembered.
    private var forgottenForRoom: UInt64 = 0
    private var latest: UInt64 = 0

    init(within bounds: DeduplicationWindow, byteLimit: Int = .max, shared: ByteBudget? = nil) {
        self.bounds = bounds
        self.byteLimit = max(0, byteLimit)
        self.shared = shared
    }

    /// The number of ids remembered.
    var count: Int { originals.count }

    /// The original publish of `id`, if it is remembered and still within the window at `now`
    /// (microseconds since the epoch).
    func original(of id: String, at now: Int64) -> Original? {
        guard let original = originals[id], original.timestamp >= bounds.cutoff(lastSequence: latest, now: now).sinceTimestamp else { return nil }
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

    /// Remembers that `id` was stored as `sequence` at `timestamp` (after every id remembered before),
    /// forgetting the oldest ids as needed.
    mutating func remember(_ id: String, sequence: UInt64, timestamp: Int64) {
        let cost = Self.cost(of: id)
        guard bounds.events != 0, originals[id] == nil else { return }
        latest = max(latest, sequence)
        guard cost <= byteLimit else {
            // Too large to hold at all: forgotten at once, for lack of room.
            forgottenForRoom = max(forgottenForRoom, sequence)
            return
        }
        let since = bounds.cutoff(lastSequence: sequence, now: timestamp).sinceTimestamp
        while let first = order.dropFirst(oldest).first.flatMap({ originals[$0] }) {
            let passed = Self.passed(first.sequence, sequence, bounds) || first.timestamp < since
            guard passed || bytes + cost > byteLimit else { break }
            forgetOldest(forRoom: !passed)
        }
        shared?.force(cost)
        originals[id] = Original(sequence: sequence, timestamp: timestamp)
        order.append(id)
        bytes += cost
    }

    /// Whether `sequence` left a window of `bounds` once the stream reached `latest`: the window then
    /// holds the sequences after `latest - events`, and `latest` itself is about to take a place.
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

    private mutating func forgetOldest(forRoom: Bool) {
        let id = order[oldest]
        if forRoom { forgottenForRoom = max(forgottenForRoom, originals[id]!.sequence) }
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
