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
