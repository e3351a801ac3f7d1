import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Reactive

/// State that only gate work touches: any overlap or lost update shows up in its counts.
private final class Unsynchronized: @unchecked Sendable {
    var count = 0
    var inside = false
    var overlaps = 0
    var order: [Int] = []
}

@Suite struct SerialGateTests {
    @Test func workFromManyThreadsNeverOverlapsAndNoneIsLost() {
        let gate = SerialGate()
        let state = Unsynchronized()
        let threads = 8
        let perThread = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread {
                gate.run {
                    if state.inside { state.overlaps += 1 }
                    state.inside = true
                    state.count += 1
                    state.inside = false
                }
            }
        }
        gate.run {}
        #expect(state.overlaps == 0)
        #expect(state.count == threads * perThread)
    }

    @Test func workQueuedFromInsideWorkRunsAfterItInOrder() {
        let gate = SerialGate()
        let state = Unsynchronized()
        gate.run {
            state.order.append(1)
            gate.run { state.order.append(3) }
            gate.run { state.order.append(4) }
            state.order.append(2)
        }
        #expect(state.order == [1, 2, 3, 4])
    }

    @Test func eachThreadsWorkRunsInTheOrderItWasQueued() {
        let gate = SerialGate()
        let lastSeen = Mutex([Int](repeating: -1, count: 4))
        let outOfOrder = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<10_000 {
                gate.run {
                    let previous = lastSeen.withLock { seen in
                        defer { seen[thread] = step }
                        return seen[thread]
                    }
                    if previous != step - 1 { outOfOrder.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(outOfOrder.load(ordering: .relaxed) == 0)
    }

    @Test func manyThreadsSendingOnOneSignalDeliverEveryValueOnceAndInEachSendersOrder() {
        let (signal, input) = Signal<(sender: Int, step: Int), Never>.pipe()
        let received = Mutex([[Int]](repeating: [], count: 6))
        let disposable = signal.map { $0 }.filter { _ in true }.observeValues { value in
            received.withLock { $0[value.sender].append(value.step) }
        }
        DispatchQueue.concurrentPerform(iterations: 6) { sender in
            for step in 0..<5_000 { input.send(value: (sender, step)) }
        }
        disposable.dispose()
        for steps in received.withLock({ $0 }) {
            #expect(steps == Array(0..<5_000))
        }
    }

    @Test func aSendFromAnotherThreadWaitsForTheDeliveryInProgressThenDeliversOnItsOwnThread() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let firstEntered = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        let deliveredOn = Mutex<[Int: UInt]>([:])
        signal.observeValues { value in
            deliveredOn.withLock { $0[value] = CurrentThread.id }
            if value == 1 {
                firstEntered.signal()
                releaseFirst.wait()
            }
        }
        Thread { input.send(value: 1) }.start()
        firstEntered.wait()

        let secondSenderThread = Atomic<UInt>(0)
        let secondReturned = DispatchSemaphore(value: 0)
        Thread {
            secondSenderThread.store(CurrentThread.id, ordering: .releasing)
            input.send(value: 2)
            secondReturned.signal()
        }.start()
        // The second send must not return while the first delivery is still running.
        #expect(secondReturned.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        releaseFirst.signal()
        #expect(secondReturned.wait(timeout: .now() + 10) == .success)
        #expect(deliveredOn.withLock { $0[2] } == secondSenderThread.load(ordering: .acquiring))
    }

    @Test func disposingAProducerFromAnotherThreadsDeliveryNeverDeadlocks() {
        for _ in 0..<20 {
            let (relay, relayInput) = Signal<Int, Never>.pipe()
            let start = SerialDisposable()
            let finished = DispatchSemaphore(value: 0)
            // The producer's thread delivers its values into `relay` from inside its own delivery...
            let producer = SignalProducer<Int, Never> { observer, lifetime in
                Thread {
                    var value = 0
                    while !lifetime.hasEnded, value < 200_000 {
                        observer.send(value: value)
                        value += 1
                    }
                    finished.signal()
                }.start()
            }
            start.inner = producer.startWithValues { relayInput.send(value: $0) }
            // ...while this thread, inside a delivery of `relay`, disposes that producer's start.
            let seen = Atomic<Int>(0)
            relay.observeValues { _ in
                if seen.add(1, ordering: .relaxed).newValue == 1_000 { start.dispose() }
            }
            let other = Thread { for value in 0..<100_000 where !start.isDisposed { relayInput.send(value: -value) } }
            other.start()
            #expect(finished.wait(timeout: .now() + 20) == .success)
        }
    }
}
