import Synchronization

/// Lets at most `perSecond` lines of one kind into the log each second, so that a client repeating
/// what gets logged (a refused connection, a refused request) cannot flood it; the next line let in
/// carries how many were left out.
///
/// Thread-safety: Sendable; `admit` may be called from any thread (the Mutex is held only to count,
/// never while logging).
final class LogRateLimit: Sendable {
    private let perSecond: Int
    private struct Window {
        var second: Int64 = -1
        var admitted = 0
        var leftOut = 0
    }
    private let window = Mutex(Window())

    /// A limit of `perSecond` lines a second.
    init(perSecond: Int = 20) {
        self.perSecond = perSecond
    }

    /// Nil when the line must be left out; otherwise how many were left out since the last one let in.
    func admit() -> Int? {
        let second = Self.start.duration(to: .now).components.seconds
        return window.withLock { window in
            if window.second != second {
                window.second = second
                window.admitted = 0
            }
            guard window.admitted < perSecond else {
                window.leftOut += 1
                return nil
            }
            window.admitted += 1
            defer { window.leftOut = 0 }
            return window.leftOut
        }
    }

    /// The origin of the one-second windows, on the monotonic clock.
    private static let start = ContinuousClock.now
}
