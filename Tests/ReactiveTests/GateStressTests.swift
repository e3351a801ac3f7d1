import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Reactive

/// Races that hunt a window a few instructions wide: the gate losing track of which thread holds it
/// (fixed in `SerialGate.enqueue`), after which a thread waits for itself. The first fails within about
/// three seconds on the broken gate and runs in every `swift test`; the two through the public API take
/// longer and run with `STREAMD_STRESS=1 swift test --filter GateHolder`.
@Suite struct GateHolderTests {
    /// SerialGate.enqueue stores holder = 0 AFTER drain has already released the token, so it can
    /// erase the id of a thread that acquired the gate in between. That thread then no longer
    /// recognises its own reentrant send and waits for itself.
    @Test func nestedPerformNeverWaitsForItselfWhileOthersRunChanges() {
        let gate = SerialGate()
        let flags = Flags()
        spawn {
            while !flags.stop.load(ordering: .relaxed) {
                gate.perform { gate.perform {} }   // inner perform is reentrant: must be queued
                flags.progress.add(1, ordering: .relaxed)
            }
            flags.progress.add(1_000_000, ordering: .relaxed)
        }
        spawn {
            while !flags.stop.load(ordering: .relaxed) {
                gate.run {}
                for _ in 0..<200 { flags.counter.add(1, ordering: .relaxed) }   // leave the holder time to finish
            }
        }
        let ok = progressesUntilStopped(flags, total: 8)
        #expect(ok, "the reentrant perform deadlocked after \(flags.progress.load(ordering: .relaxed)) rounds; holder = \(gate.holder.load(ordering: .relaxed)), token = \(gate.token.load(ordering: .relaxed))")
    }

    /// The same race through the public API: an observer that sends into its own subject (documented
    /// as safe) while another thread observes and disposes (documented as never blocking anyone).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STREAMD_STRESS"] != nil))
    func reentrantSendNeverDeadlocksWhileAnotherThreadSubscribes() {
        let subject = PassthroughSubject<Int, Never>()
        let flags = Flags()
        subject.observeValues { value in
            if value == 0 { subject.send(value: 1) }       // reentrant send, documented as safe
            else { flags.progress.add(1, ordering: .relaxed) }
        }
        spawn {
            while !flags.stop.load(ordering: .relaxed) { subject.send(value: 0) }
            flags.progress.add(1_000_000, ordering: .relaxed)
        }
        spawn {
            while !flags.stop.load(ordering: .relaxed) {
                subject.observeValues { _ in }.dispose()
                for _ in 0..<200 { flags.counter.add(1, ordering: .relaxed) }
            }
        }
        let ok = progressesUntilStopped(flags, total: 20)
        #expect(ok, "deadlocked after \(flags.progress.load(ordering: .relaxed)) reentrant sends")
    }
}

@Suite(.enabled(if: ProcessInfo.processInfo.environment["STREAMD_STRESS"] != nil))
struct PropertyGateHolderTests {
    /// The same race through `perform`: an observer that clamps the property it observes (documented
    /// as safe) while another thread observes and disposes.
    @Test func settingAPropertyFromItsOwnObserverNeverDeadlocks() {
        let property = MutableProperty(0)
        let flags = Flags()
        property.signal.observeValues { value in
            if value > 0 { property.value = 0 }          // reentrant set: queued behind this event
            else { flags.progress.add(1, ordering: .relaxed) }
        }
        spawn {
            while !flags.stop.load(ordering: .relaxed) { property.value = 1 }
        }
        spawn {
            while !flags.stop.load(ordering: .relaxed) {
                property.signal.observeValues { _ in }.dispose()
                for _ in 0..<200 { flags.counter.add(1, ordering: .relaxed) }
            }
        }
        let ok = progressesWithoutStalling(flags, total: 15)
        flags.stop.store(true, ordering: .relaxed)
        #expect(ok, "deadlocked after \(flags.progress.load(ordering: .relaxed)) reentrant sets")
    }
}
