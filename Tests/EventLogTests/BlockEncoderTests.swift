import Dispatch
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct BlockEncoderTests {
    @Test func largeAppendsEncodedByTheAppenderMixWithSmallOnesInOneCommit() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 50
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        // The writer is held inside a job of its own while the appends queue, so it takes them in one
        // go afterwards (had it taken the job with an append beside it, that one would commit alone).
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        #expect(log.queue.push(.admin { _ in holding.signal(); release.wait() }))
        holding.wait()
        let receipts = Mutex<[AppendReceipt]>([])
        let done = DispatchGroup()
        let appends: [[[UInt8]]] = [
            [samplePayload(0)], (1..<121).map(samplePayload), [samplePayload(121), samplePayload(122)], (123..<160).map(samplePayload),
        ]
        for batch in appends {
            done.enter()
            log.append(contentsOf: batch, to: "s") { result in
                if case .success(let receipt) = result { receipts.withLock { $0.append(receipt) } }
                done.leave()
            }
        }
        release.signal()
        done.wait()
        #expect(receipts.withLock { $0.map(\.sequences) } == [1...1, 2...121, 122...123, 124...160])
        let events = try log.readAll("s")
        #expect(events.map(\.payload) == (0..<160).map(samplePayload))
        #expect(Set(events.map(\.timestamp)).count == 1)
        let report = try log.verify()
        #expect(report.isClean, "\(report)")
        // 1 | 50 50 20 | 2 | 37: the large appends were cut at the block limit.
        #expect(report.blockCount == 6)
    }

    @Test func anEncoderSplitsByEventCountAndBytes() throws {
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 10
        options.maximumBlockBytes = 1_000
        let encoder = try BlockEncoder(options: options)
        #expect(encoder.encode((0..<25).map { _ in [1, 2, 3] }).map(\.count) == [10, 10, 5])
        let big = encoder.encode((0..<6).map { incompressibleBytes(400, seed: UInt64($0 + 1)) })
        #expect(big.map(\.count) == [2, 2, 2])
        #expect(big.allSatisfy { $0.codec == .raw && $0.bytes.count == $0.rawSize })
    }
}
