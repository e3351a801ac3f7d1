import Foundation
import Synchronization
import Testing
@testable import EventLog

/// What the log tells its observers of its housekeeping: events retention removed (per stream and
/// commit, once committed) and background checkpoint cycles.
@Suite struct ActivityObserverTests {
    /// The reports an observer received.
    final class Reports<Report: Sendable>: Sendable {
        private let list = Mutex<[Report]>([])
        var all: [Report] { list.withLock { $0 } }
        func add(_ report: Report) { list.withLock { $0.append(report) } }
    }

    @Test func retentionIsReportedOncePerStreamAndCommitWithTheLimitsThatRemovedEvents() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let drops = Reports<RetentionDrop>()
        var options = clock.options()
        options.retentionObserver = { drops.add($0) }
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s", policy: StreamPolicy(capacity: .last(3)))
        try log.append(contentsOf: (0..<5).map(samplePayload), to: "s")
        #expect(drops.all == [RetentionDrop(stream: "s", events: 2, firstSequence: 3, limits: [.capacity])])
        try log.append(contentsOf: (5..<7).map(samplePayload), to: "s")
        #expect(drops.all.last == RetentionDrop(stream: "s", events: 2, firstSequence: 5, limits: [.capacity]))

        try log.createStream("aged", policy: StreamPolicy(maxAge: .seconds(10)))
        try log.append(contentsOf: (0..<4).map(samplePayload), to: "aged")
        clock.advance(by: 11_000_000)
        try log.enforceRetention()
        #expect(drops.all.last == RetentionDrop(stream: "aged", events: 4, firstSequence: 5, limits: [.maxAge]))
        #expect(drops.all.count == 3, "no report for a commit that removed nothing: \(drops.all)")
        #expect(drops.all.last?.description == "retention removed 4 events of stream aged (max-age)")
    }

    @Test func eachBackgroundCheckpointCycleIsReportedWithItsDurationAndPages() throws {
        let dir = TemporaryDirectory()
        let cycles = Reports<CheckpointReport>()
        var options = EventLogOptions()
        options.checkpointPages = 8
        options.checkpointObserver = { cycles.add($0) }
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        // One append of ~36 KB: one transaction that grows the WAL past the 8-page threshold but short
        // of the 32 at which the commit would copy it itself, and no commit after it, so the WAL the
        // cycle's second pass finds is the one that asked for the cycle. (Appends spread over several
        // transactions let a busy machine's commits copy the WAL and start it over under a late cycle.)
        try log.append(contentsOf: (0..<12).map { incompressibleBytes(3_000, seed: UInt64($0 + 1)) }, to: "s")
        let deadline = Date().addingTimeInterval(10)
        while cycles.all.isEmpty, Date() < deadline { usleep(2_000) }
        let first = try #require(cycles.all.first, "no checkpoint reported")
        #expect(first.walPages >= 8 && first.copiedPages > 0 && first.copiedPages <= first.walPages, "\(first)")
        #expect(first.duration > .zero && first.duration < .seconds(10))
        log.close()
    }
}
