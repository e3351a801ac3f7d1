import Dispatch
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
}
