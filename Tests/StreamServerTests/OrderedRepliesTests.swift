import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StreamServer

struct OrderedRepliesTests {
    @Test func repliesFiledInAnyOrderFromManyThreadsAreWrittenInTicketOrder() {
        let replies = OrderedReplies()
        let count = 20_000
        let tickets = (0..<count).map { _ in replies.take(holding: 10) }
        #expect(replies.bytesInFlight == count * 10)
        let written = Mutex<[UInt8]>([])
        let writes = Atomic<Int>(0)
        // Eight threads file interleaved slices, each from its end backwards: plenty of out-of-order filing.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for (index, ticket) in tickets.enumerated().reversed() where index % 8 == worker {
                replies.file([UInt8(truncatingIfNeeded: index)], for: ticket) { bytes in
                    written.withLock { $0 += bytes }
                    writes.add(1, ordering: .relaxed)
                }
            }
        }
        replies.waitUntilAnswered()
        #expect(written.withLock { $0 } == (0..<count).map { UInt8(truncatingIfNeeded: $0) })
        #expect(replies.bytesInFlight == 0)
        // Runs are written together: far fewer writes than replies.
        let writeCount = writes.load(ordering: .relaxed)
        #expect(writeCount < count)
    }

    @Test func waitingReturnsOnlyOnceEveryTicketTakenIsWritten() {
        let replies = OrderedReplies()
        let first = replies.take(), second = replies.take()
        let finished = Atomic<Bool>(false)
        let waiter = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            replies.waitUntilAnswered()
            finished.store(true, ordering: .sequentiallyConsistent)
            waiter.signal()
        }
        replies.file([2], for: second) { _ in }
        // The second reply cannot be written before the first: the waiter must still be waiting.
        #expect(waiter.wait(timeout: .now() + 0.2) == .timedOut)
        let finishedEarly = finished.load(ordering: .sequentiallyConsistent)
        #expect(!finishedEarly)
        replies.file([1], for: first) { _ in }
        #expect(waiter.wait(timeout: .now() + 10) == .success)
    }
}
