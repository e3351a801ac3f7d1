import EventLog

/// The message ids a stream has stored recently, with the sequence and timestamp each one got.
///
/// Bounded three ways: by the ids of the stream's last `capacity` sequences, by `byteLimit` bytes for
/// this stream, and by the hub's `shared` budget over every stream. An id costs its UTF-8 length plus
/// `overheadPerID`; a new id forgets this window's oldest ones until it fits its own limits. Its bytes
/// are taken from `shared` even past that budget's limit: the hub then trims the largest windows
/// (`forgetOldest(bytes:)`) right after the publish, outside this window's lock. The log stores the
/// ids too: a window starts from what it kept (`load`), so a restart forgets none; and an id forgotten
/// for lack of room while its event may still be among the last `capacity` is still in the log, which
/// the hub asks whenever `mayHaveForgotten` says so. Call `forgetAll()` before dropping a window, to
/// give its bytes back to `shared`.
/// A value type; the hub keeps it under the stream's lock.
struct DeduplicationWindow {
    struct Original: Equatable {
        let sequence: UInt64
        let timestamp: Int64
    }

    /// About the bytes a remembered id costs beyond its own: its dictionary entry, its place in the
    /// order and the string's header.
    static let overheadPerID = 80

    let capacity: Int
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

    init(capacity: Int, byteLimit: Int = .max, shared: ByteBudget? = nil) {
        self.capacity = max(0, capacity)
        self.byteLimit = max(0, byteLimit)
        self.shared = shared
    }

    /// The number of ids remembered.
    var count: Int { originals.count }

    /// The original publish of `id`, if it is remembered.
    func original(of id: String) -> Original? { originals[id] }

    /// Whether an id missing here may still be kept by the log: one was forgotten for lack of room
    /// while its event was among the stream's last `capacity` (as far as this window has seen).
    var mayHaveForgotten: Bool { forgottenForRoom > 0 && forgottenForRoom + UInt64(capacity) > latest }

    /// The bytes remembering `id` costs.
    static func cost(of id: String) -> Int { id.utf8.count + overheadPerID }

    /// Remembers the ids the log kept (oldest first), before any other.
    mutating func load(_ stored: [StoredMessageID]) {
        for id in stored { remember(id.id, sequence: id.sequence, timestamp: id.timestamp) }
        isLoaded = true
    }

    /// Remembers that `id` was stored as `sequence` at `timestamp` (after every id remembered before),
    /// forgetting the oldest ids as needed.
    mutating func remember(_ id: String, sequence: UInt64, timestamp: Int64) {
        let cost = Self.cost(of: id)
        guard capacity > 0, originals[id] == nil else { return }
        latest = max(latest, sequence)
        guard cost <= byteLimit else {
            // Too large to hold at all: forgotten at once, for lack of room.
            forgottenForRoom = max(forgottenForRoom, sequence)
            return
        }
        while count > 0, count >= capacity || bytes + cost > byteLimit || originals[order[oldest]]!.sequence + UInt64(capacity) <= sequence {
            let passed = count >= capacity || originals[order[oldest]]!.sequence + UInt64(capacity) <= sequence
            forgetOldest(forRoom: !passed)
        }
        shared?.force(cost)
        originals[id] = Original(sequence: sequence, timestamp: timestamp)
        order.append(id)
        bytes += cost
    }

    /// Forgets every id and gives their bytes back.
    mutating func forgetAll() {
        shared?.give(bytes)
        originals = [:]
        order = []
        oldest = 0
        bytes = 0
        forgottenForRoom = 0
        latest = 0
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
