/// Events stored per second over a sliding window of the last ten seconds, per stream and in total,
/// and the count since start: the figures `STATS` and `STREAM_INFO` report.
///
/// Each window is ten one-second buckets indexed by the second modulo ten, so recording is O(1) and
/// memory is fixed per stream. Time is given by the caller in whole seconds since the hub started,
/// which keeps the arithmetic testable without a clock.
/// A value type; the hub keeps it under a mutex.
struct PublishRate: Sendable {
    /// The window, in seconds.
    static let windowSeconds: Int64 = 10

    private var total = Window()
    private var streams: [String: Window] = [:]
    /// Events stored since the hub started.
    private(set) var publishedSinceStart: UInt64 = 0

    /// Counts `count` events stored in `stream` during second `second`.
    mutating func record(_ count: Int, to stream: String, atSecond second: Int64) {
        guard count > 0 else { return }
        total.add(UInt64(count), atSecond: second)
        streams[stream, default: Window()].add(UInt64(count), atSecond: second)
        publishedSinceStart &+= UInt64(count)
    }

    /// Drops the window of a deleted stream.
    mutating func forget(_ stream: String) {
        streams[stream] = nil
    }

    /// Thousandths of events per second in `stream` (all streams when nil) over the window ending at
    /// `second`; while the hub is younger than the window, over its age (at least one second).
    func rateMillis(of stream: String?, atSecond second: Int64, uptime: Duration) -> UInt64 {
        let window = stream.map { streams[$0] ?? Window() } ?? total
        let age = Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18
        let span = min(Double(Self.windowSeconds), max(1, age))
        return UInt64((Double(window.sum(atSecond: second)) * 1_000 / span).rounded())
    }

    /// Ten one-second buckets; `latest` is the newest second recorded.
    private struct Window: Sendable {
        var latest: Int64 = 0
        var buckets = [UInt64](repeating: 0, count: Int(PublishRate.windowSeconds))

        mutating func add(_ count: UInt64, atSecond second: Int64) {
            if second > latest {
                if second - latest >= PublishRate.windowSeconds {
                    for index in buckets.indices { buckets[index] = 0 }
                } else {
                    for cleared in (latest + 1)...second { buckets[Self.slot(cleared)] = 0 }
                }
                latest = second
            }
            // A second older than the window (a clock that cannot go back, so only a caller's slip) is dropped.
            guard latest - second < PublishRate.windowSeconds else { return }
            buckets[Self.slot(second)] &+= count
        }

        /// Events in the seconds `second - 9 ... second` (only those the buckets still hold).
        func sum(atSecond second: Int64) -> UInt64 {
            let from = max(second, latest) - PublishRate.windowSeconds + 1
            let to = min(second, latest)
            guard from <= to else { return 0 }
            var sum: UInt64 = 0
            for bucketSecond in from...to { sum &+= buckets[Self.slot(bucketSecond)] }
            return sum
        }

        private static func slot(_ second: Int64) -> Int {
            Int(((second % PublishRate.windowSeconds) + PublishRate.windowSeconds) % PublishRate.windowSeconds)
        }
    }
}
