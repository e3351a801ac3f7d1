import Foundation

/// Nanoseconds on the monotonic clock, which every process of the machine shares.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Sleeps until the monotonic clock reads `deadline` (returns at once if it has passed).
func sleep(untilNanoseconds deadline: UInt64) {
    var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
}

/// The value at `fraction` (0...1) of `sorted`, which must not be empty.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}

/// Seconds since `start`, a reading of `monotonicNanoseconds()`.
func seconds(since start: UInt64) -> Double {
    Double(monotonicNanoseconds() - start) / 1e9
}

/// `nanoseconds` as 8 bytes, most significant first: a send time carried in a payload.
func timestampBytes(_ nanoseconds: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: nanoseconds >> (56 - 8 * UInt64($0))) }
}

/// The send time `timestampBytes` put in the first 8 of `bytes`.
func timestamp(from bytes: some Collection<UInt8>) -> UInt64 {
    bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
}

/// One latency run's median, 99th and 99.9th percentile, in microseconds.
struct LatencyPercentiles {
    var p50: Double, p99: Double, p999: Double

    /// The percentiles of `latencies`, which must not be empty.
    init(of latencies: [Double]) {
        let sorted = latencies.sorted()
        (p50, p99, p999) = (percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 0.999))
    }
}

/// Each run's percentiles of one latency workload, reported as `METRIC_p50`, `METRIC_p99` and `METRIC_p999`.
struct LatencyFigures {
    private var runs: [LatencyPercentiles] = []

    mutating func append(_ run: LatencyPercentiles) { runs.append(run) }

    /// The three report lines (metric, each run's value, unit, detail).
    func lines(_ metric: String, _ detail: String) -> [(String, [Double], String, String)] {
        [("\(metric)_p50", runs.map(\.p50), "us", detail), ("\(metric)_p99", runs.map(\.p99), "us", detail),
         ("\(metric)_p999", runs.map(\.p999), "us", detail)]
    }
}
