import Foundation
import StreamdTestSupport
import Synchronization
import Testing

@testable import StreamServer

/// Notes requests on `keeper` from eight threads, each pausing a random 0 to `maximumPause` µs
/// between notes, for 0.3 s; then stops the keeper while they go on, and expects `hasEnded` to
/// come true and every thread to have noted some.
func noteFromManyThreadsThenStop(_ keeper: any WakeLatencyKeeper, maximumPause: UInt32, hasEnded: () -> Bool) throws {
    let stopped = Atomic(false)
    let noters = (0..<8).map { index in
        BackgroundWork {
            var notes = 0
            while !stopped.load(ordering: .relaxed) {
                keeper.noteActivity()
                notes += 1
                usleep(UInt32.random(in: 0...maximumPause) + UInt32(index))
            }
            return notes
        }
    }
    Thread.sleep(forTimeInterval: 0.3)
    keeper.stop()
    let ended = pollUntil { hasEnded() }
    #expect(ended)
    stopped.store(true, ordering: .relaxed)
    for noter in noters { #expect(try noter.result() > 0) }
}

/// Notes two requests on `keeper` a random 0 to `maximumGap` apart, `rounds` times, and expects its
/// thread to fall asleep having seen both each time (`sleepsUpToDate`): the second lands in every
/// phase of its stopping and falling asleep.
func expectNoRequestMissed(by keeper: any WakeLatencyKeeper, rounds: Int, maximumGap: Duration, sleepsUpToDate: () -> Bool) {
    for round in 0..<rounds {
        keeper.noteActivity()
        let gap = ContinuousClock.now + .nanoseconds(Int.random(in: 0...Int(maximumGap / .nanoseconds(1))))
        while ContinuousClock.now < gap {}
        keeper.noteActivity()
        guard pollUntil(sleepsUpToDate) else {
            Issue.record("round \(round): the thread sleeps with a request it never saw")
            return
        }
    }
}
