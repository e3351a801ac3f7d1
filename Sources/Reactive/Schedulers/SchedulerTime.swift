/// A point in a scheduler's time: nanoseconds since the scheduler's origin.
///
/// Each scheduler has its own origin (system uptime for `QueueScheduler`, zero for a fresh
/// `TestScheduler`), so times of different schedulers are not comparable. Arithmetic saturates: a time
/// never goes below the origin or past `UInt64.max` nanoseconds. A plain value, thread-safe.
public struct SchedulerTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the scheduler's origin.
    public var nanoseconds: UInt64

    /// The time `nanoseconds` after the origin.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The scheduler's origin.
    public static let zero = SchedulerTime(nanoseconds: 0)

    /// This time moved by `duration`, which may be negative; saturates at the origin and the maximum.
    public func advanced(by duration: Duration) -> SchedulerTime {
        let delta = duration.saturatingNanoseconds
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return SchedulerTime(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return SchedulerTime(nanoseconds: nanoseconds > magnitude ? nanoseconds - magnitude : 0)
    }

    /// The signed duration from this time to `other`: positive when `other` is later.
    public func duration(to other: SchedulerTime) -> Duration {
        if other >= self { return Duration.nanoseconds(exactly: other.nanoseconds - nanoseconds) }
        return .zero - Duration.nanoseconds(exactly: nanoseconds - other.nanoseconds)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: SchedulerTime, rhs: SchedulerTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `time` moved later by `duration`.
    public static func + (time: SchedulerTime, duration: Duration) -> SchedulerTime { time.advanced(by: duration) }

    /// `time` moved earlier by `duration`.
    public static func - (time: SchedulerTime, duration: Duration) -> SchedulerTime {
        time.advanced(by: .zero - duration)
    }

    /// The duration from `rhs` to `lhs`.
    public static func - (lhs: SchedulerTime, rhs: SchedulerTime) -> Duration { rhs.duration(to: lhs) }

    /// Moves `time` later by `duration`.
    public static func += (time: inout SchedulerTime, duration: Duration) { time = time + duration }

    /// The time since the origin, as a duration.
    public var description: String { "\(Duration.nanoseconds(exactly: nanoseconds))" }
}

extension Duration {
    /// This duration in whole nanoseconds, clamped to the range of `Int64`; sub-nanoseconds are dropped.
    var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !sumOverflow else { return seconds < 0 ? .min : .max }
        return sum
    }

    /// `nanoseconds` as a duration, for counts past `Int64.max`.
    static func nanoseconds(exactly nanoseconds: UInt64) -> Duration {
        .seconds(Int64(nanoseconds / 1_000_000_000)) + .nanoseconds(Int64(nanoseconds % 1_000_000_000))
    }
}
