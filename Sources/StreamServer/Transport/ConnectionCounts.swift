/// The connections a server holds, in total and per user, against its `ConnectionLimits`: `admit`
/// counts a new one in, or says in a sentence why it is refused; `release` counts one out.
///
/// A value type; the server keeps it under its state lock.
struct ConnectionCounts: Sendable {
    private let maximumTotal: Int
    private let maximumPerUser: Int
    private(set) var total = 0
    private var perUser: [UInt32: Int] = [:]

    /// Counts against the total and per-user maximums of `limits`, with no connection yet.
    init(limits: ConnectionLimits) {
        maximumTotal = limits.maximumConnections
        maximumPerUser = limits.maximumConnectionsPerUser
    }

    /// The connections of `uid` held now.
    func count(of uid: UInt32) -> Int { perUser[uid] ?? 0 }

    /// Counts in a connection of `uid` (nil when the kernel gave no credentials), or returns why not.
    mutating func admit(uid: UInt32?) -> String? {
        guard total < maximumTotal else {
            return "the server already serves \(total) connections, its maximum; the connection is refused. Close connections you do not need, or retry later."
        }
        if let uid {
            let held = perUser[uid] ?? 0
            guard held < maximumPerUser else {
                return "user \(uid) already holds \(held) connections to this server, the most one user may; the connection is refused. Close connections you do not need, or retry later."
            }
            perUser[uid] = held + 1
        }
        total += 1
        return nil
    }

    /// Counts out a connection admitted for `uid`.
    mutating func release(uid: UInt32?) {
        total -= 1
        guard let uid, let held = perUser[uid] else { return }
        perUser[uid] = held > 1 ? held - 1 : nil
    }
}
