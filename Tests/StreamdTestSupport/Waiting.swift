import Foundation

/// How long a test waits for something that should happen soon (values to arrive, a subscriber to
/// register, a load to get going) before it calls it a failure.
///
/// Generous on purpose: in a full run Swift Testing starts every test at once, and each synchronous
/// test holds one of the threads of Swift's concurrency pool (two on a 2-core machine) while it runs,
/// so an async test may wait minutes between two of its steps. A passing test never waits this long.
public let patience: Duration = .seconds(300)

extension Duration {
    /// The duration in seconds, for the Foundation and Dispatch calls that take a `TimeInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// Asks `condition` every 100 µs until it holds or `timeout` passes; whether it came to hold.
///
/// For conditions that other threads bring about, where there is nothing to wait on: never sleep a
/// guessed time instead. It waits `patience` unless told otherwise, as `eventually` does: a passing
/// test never waits that long, and a loaded machine may take more than a few seconds.
public func pollUntil(timeout: Duration = patience, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(100)
    }
    return condition()
}

/// The async form of `pollUntil`: asks `condition` every 5 ms, sleeping (not blocking a thread of the
/// concurrency pool) in between, until it holds or `timeout` passes; whether it came to hold.
@discardableResult
public func eventually(timeout: Duration = patience, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return try await condition()
}

/// Runs `body` on a thread of its own and returns what it returned: for blocking work (a build, a
/// benchmark, a timed load through a blocking socket) that must neither hold a thread of the
/// concurrency pool for long nor be slowed by the tests that hold them.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
