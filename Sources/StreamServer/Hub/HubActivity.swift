import Synchronization

/// What the hub counts while it serves: when it started, open connections, and publish rates.
///
/// Thread-safety: Sendable; the connection count is atomic and the rates sit under a mutex held only
/// for a few additions, never while calling out.
final class HubActivity: Sendable {
    /// When the hub started serving.
    let started = ContinuousClock.now
    private let connections = Atomic<Int>(0)
    private let rates = Mutex(PublishRate())

    /// Time since start.
    var uptime: Duration { ContinuousClock.now - started }

    /// Open connections, as the sessions reported them.
    var connectionCount: Int { max(0, connections.load(ordering: .relaxed)) }

    func connectionOpened() { connections.add(1, ordering: .relaxed) }
    func connectionClosed() { connections.subtract(1, ordering: .relaxed) }

    /// Counts `count` events just stored in `stream`.
    func recordPublished(_ count: Int, to stream: String) {
        let second = uptime.components.seconds
        rates.withLock { $0.record(count, to: stream, atSecond: second) }
    }

    /// Drops the rate window of a deleted stream.
    func forget(_ stream: String) {
        rates.withLock { $0.forget(stream) }
    }

    /// Thousandths of events per second over the last ~10 s, of `stream` or of all streams.
    func rateMillis(of stream: String?) -> UInt64 {
        let uptime = self.uptime
        return rates.withLock { $0.rateMillis(of: stream, atSecond: uptime.components.seconds, uptime: uptime) }
    }

    /// Events stored since start.
    var publishedSinceStart: UInt64 { rates.withLock { $0.publishedSinceStart } }
}
