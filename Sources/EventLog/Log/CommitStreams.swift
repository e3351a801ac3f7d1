/// The streams one commit writes, in the order it first met them, each with its state as the commit
/// leaves it. Looked up by name for every append of the commit: most commits write one stream, so
/// a name is first compared with that one, and a dictionary is kept only once there are two.
///
/// A value type, local to one commit.
struct CommitStreams {
    /// One stream's share of the commit.
    struct Part {
        var state: StreamState
        /// Its blocks not in its catalog row once committed (see LogWriter+Positions.swift).
        var unsavedBlocks = 0
        /// Why its writes failed, when they did (the commit's other streams went in).
        var failure: EventLogError?
    }

    private(set) var parts: [Part] = []
    /// Each stream's place in `parts`, once there are two or more.
    private var slots: [String: Int] = [:]

    var count: Int { parts.count }
    var indices: Range<Int> { parts.indices }

    subscript(slot: Int) -> Part {
        get { parts[slot] }
        set { parts[slot] = newValue }
    }

    /// The place of the stream named `name`, if the commit writes it.
    func slot(of name: String) -> Int? {
        if parts.count == 1 { return parts[0].state.name == name ? 0 : nil }
        return slots[name]
    }

    /// Adds a stream the commit writes, in `state`; returns its place.
    mutating func add(_ state: StreamState) -> Int {
        if parts.count == 1 { slots[parts[0].state.name] = 0 }
        if !parts.isEmpty { slots[state.name] = parts.count }
        parts.append(Part(state: state))
        return parts.count - 1
    }
}
