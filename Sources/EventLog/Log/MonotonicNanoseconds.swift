#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock: cheap, for the writer's timing (full-disk retries, reclaim
/// steps).
///
/// Thread-safety: may be called from any thread.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
