import Foundation
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// The background checkpointer under load: many logs opened and closed, many appending threads
/// beside a reader that holds its snapshot.
@Suite struct CheckpointerLoadTests {
    private func threadCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    @Test func openingAndClosingManyLogsLeavesNoThreadBehind() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 1
        let before = threadCount()
        for round in 0..<150 {
            let log = try EventLog(path: dir.file(), options: options)
            if round == 0 { try log.createStream("s") }
            try log.append(incompressibleBytes(5_000, seed: UInt64(round + 1)), to: "s")
            if round % 2 == 0 { log.close() }  // the others close from deinit
        }
        // Threads end just after close() returns: wait for them, allowing for other tests' threads.
        let deadline = Date().addingTimeInterval(10)
        while threadCount() > before + 40, Date() < deadline { usleep(2_000) }
        #expect(threadCount() <= before + 40, "\(threadCount() - before) more threads than before 150 logs")
        let log = try EventLog(path: dir.file())
        #expect(try log.readAll("s").count == 150)
        #expect(try log.verify().isClean)
    }

    @Test func appendsFromEightThreadsBesideASlowReaderNeverStall() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 16
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        for index in 0..<10 { try log.append(samplePayload(index), to: "s") }
        let slowest = Mutex<Double>(0)
        let reading = DispatchSemaphore(value: 0)
        let reader = Thread {
            var first = true
            _ = try? log.read("s", from: .streamDefault) { _ in
                if first { first = false; reading.signal(); usleep(1_500_000) }
                return true
            }
        }
        reader.start()
        reading.wait()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<300 {
                let start = Date()
                _ = try? log.append(incompressibleBytes(3_000, seed: UInt64(thread * 1_000 + index + 1)), to: "s")
                let took = Date().timeIntervalSince(start)
                slowest.withLock { $0 = max($0, took) }
            }
        }
        #expect(slowest.withLock { $0 } < 1.0, "an append took \(slowest.withLock { $0 }) s")
        #expect(try log.readAll("s").count == 10 + 8 * 300)
        #expect(try log.verify().isClean)
    }
}
