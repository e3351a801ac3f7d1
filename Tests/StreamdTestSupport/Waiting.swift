import Foundation

/// Asks `condition` every 100 µs until it holds or `timeout` passes; whether it came to hold.
///
/// For conditions that other threads bring about, where there is nothing to wait on: never sleep a
/// guessed time instead.
public func pollUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(100)
    }
    return condition()
}
