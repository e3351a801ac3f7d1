import Dispatch
import Foundation
import Synchronization
@testable import Reactive

/// Shared flags for stress threads.
final class Flags: Sendable {
    let stop = Atomic<Bool>(false)
    let progress = Atomic<Int>(0)
    let counter = Atomic<Int>(0)
}

/// Starts `body` on a new detached thread.
func spawn(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread { body() }
    thread.stackSize = 1 << 22
    thread.start()
}

/// Watches `flags.progress`; returns false if it stops moving for `stall` seconds before `total` seconds.
func progressesWithoutStalling(_ flags: Flags, total: Double, stall: Double = 2.0) -> Bool {
    let start = Date()
    var last = flags.progress.load(ordering: .relaxed)
    var lastChange = Date()
    while Date().timeIntervalSince(start) < total {
        usleep(50_000)
        let now = flags.progress.load(ordering: .relaxed)
        if now != last { last = now; lastChange = Date() }
        if Date().timeIntervalSince(lastChange) > stall { return false }
    }
    return true
}

/// Runs `progressesWithoutStalling`, then stops the threads; a stall counts as a deadlock only if the
/// stalled thread does not move again within 30 s of the others stopping (else it was only starved).
func progressesUntilStopped(_ flags: Flags, total: Double) -> Bool {
    var ok = progressesWithoutStalling(flags, total: total)
    flags.stop.store(true, ordering: .relaxed)
    guard !ok else { return true }
    let before = flags.progress.load(ordering: .relaxed)
    let deadline = ContinuousClock.now + .seconds(30)
    while !ok, ContinuousClock.now < deadline {
        usleep(1_000)
        ok = flags.progress.load(ordering: .relaxed) != before
    }
    return ok
}
