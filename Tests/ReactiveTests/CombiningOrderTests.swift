import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Reactive

/// Ordering across threads for operators whose sources share state: outputs reach observers in the
/// order they were computed (see `GatedInput`).
@Suite struct CombiningOrderTests {
    /// Two sources on two threads: each component of the delivered pairs never goes back, so the last
    /// pair delivered is the latest combination.
    @Test func combineLatestNeverDeliversAStalePairAfterANewerOne() {
        let (a, aIn) = Signal<Int, Never>.pipe()
        let (b, bIn) = Signal<Int, Never>.pipe()
        let received = Mutex<[(Int, Int)]>([])
        Signal.combineLatest(a, b).observeValues { pair in received.withLock { $0.append(pair) } }
        aIn.send(value: 0)
        bIn.send(value: 0)
        let n = 50_000
        let group = DispatchGroup()
        for input in [aIn, bIn] {
            group.enter()
            spawn {
                for i in 1...n { input.send(value: i) }
                group.leave()
            }
        }
        group.wait()
        let pairs = received.withLock { $0 }
        var regressions = 0
        for (previous, next) in zip(pairs, pairs.dropFirst()) where next.0 < previous.0 || next.1 < previous.1 {
            regressions += 1
        }
        #expect(regressions == 0, "\(regressions) pairs went back in time")
    }

    /// The same, arranged exactly. `probe` is a relay of the combined signal whose `disposed` handler runs
    /// while this thread holds the combined signal's gate (as any observer of it would during a
    /// delivery). Thread T sends a=1 and must wait for the gate; meanwhile b=2 is sent here. With the
    /// pair computed outside the gate, (1, 0) was delivered after (1, 2).
    @Test func combineLatestDeliversPairsInTheOrderTheyWereComputed() {
        let (a, aIn) = Signal<Int, Never>.pipe()
        let (b, bIn) = Signal<Int, Never>.pipe()
        let combined = Signal.combineLatest(a, b)
        let received = Mutex<[(Int, Int)]>([])
        combined.observeValues { pair in received.withLock { $0.append(pair) } }
        aIn.send(value: 0)
        bIn.send(value: 0)
        let go = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        spawn { go.wait(); aIn.send(value: 1); finished.signal() }
        var probe: Signal<(Int, Int), Never>? = combined.on(disposed: {
            go.signal()
            usleep(300_000)          // T computes (1, 0) under the mutex, then waits for the gate
            bIn.send(value: 2)       // computes (1, 2)
        })
        let observation = probe!.observe { _ in }
        probe = nil
        observation.dispose()        // tears the probe down on this thread, under the shared gate
        finished.wait()
        let pairs = received.withLock { $0 }.map { "\($0.0),\($0.1)" }
        // T's a=1 is combined only once T holds the gate, after the b=2 queued by this thread: every
        // pair is combined and delivered in one step, so the latest combination is the last one.
        #expect(pairs == ["0,0", "0,2", "1,2"], "delivered \(pairs): the latest combination is not the last one")
        withExtendedLifetime((a, b)) {}
    }

    /// A completion on another thread that finds the pair's source exhausted must not overtake the
    /// pair made just before it.
    @Test func zipDeliversAPairMadeBeforeTheCompletion() {
        let (a, aIn) = Signal<Int, Never>.pipe()
        let (b, bIn) = Signal<Int, Never>.pipe()
        let zipped = Signal.zip(a, b)
        let events = Mutex<[String]>([])
        zipped.observe { event in events.withLock { $0.append(event.isTerminating ? "\(event)" : "value") } }
        bIn.send(value: 1)
        let go = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        spawn { go.wait(); aIn.send(value: 1); finished.signal() }   // pairs (1, 1), then waits for the gate
        var probe: Signal<(Int, Int), Never>? = zipped.on(disposed: {
            go.signal()
            usleep(300_000)
            bIn.sendCompleted()      // b is done and has nothing left waiting: zip completes
        })
        let observation = probe!.observe { _ in }
        probe = nil
        observation.dispose()
        finished.wait()
        #expect(events.withLock { $0 } == ["value", "completed"], "got \(events.withLock { $0 }): the pair (1, 1) was made, then lost")
        withExtendedLifetime((a, b)) {}
    }
}
