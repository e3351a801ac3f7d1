import Dispatch
import Synchronization
import Testing

@testable import StreamServer

/// `LogRateLimit` lets a bounded number of lines through each second, and the next line let in
/// carries how many were left out.
@Suite struct LogRateLimitTests {
    @Test func aBurstIsCutToTheLimitAndTheNextLineLetInCountsTheRest() {
        let limit = LogRateLimit(perSecond: 5)
        var admitted: [Int] = []
        var leftOut = 0
        // A burst within one second (two at most, if it straddles a boundary).
        for _ in 0..<1_000 {
            if let dropped = limit.admit() { admitted.append(dropped) } else { leftOut += 1 }
        }
        #expect((5...10).contains(admitted.count))
        #expect(admitted.count + leftOut == 1_000)
        // Once the window turns, the first line let in reports what was dropped since the last one.
        var next: Int?
        while next == nil {
            next = limit.admit()
            if next == nil { leftOut += 1 }
        }
        #expect(next! + admitted.reduce(0, +) == leftOut)
    }

    @Test func threadsAdmitNoMoreThanTheLimitTogether() {
        let limit = LogRateLimit(perSecond: 50)
        let admitted = Atomic<Int>(0)
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 where limit.admit() != nil { admitted.add(1, ordering: .relaxed) }
        }
        // However the threads race, no window lets more than the limit through.
        let windows = Int(start.duration(to: .now).components.seconds) + 2
        let total = admitted.load(ordering: .relaxed)
        #expect(total >= 50 && total <= 50 * windows, "\(total) in \(windows) windows")
    }
}
