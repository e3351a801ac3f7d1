import Foundation
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// The background checkpointer under load: many logs opened and closed, many appending threads
/// beside a reader that holds its snapshot.
@Suite struct CheckpointerLoadTests {
    /// The threads of this process that logs start (`log-writer`, `log-sequencer`, `log-checkpoint`), by id.
    private func logThreads() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.filter { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "").hasPrefix("log-")
        })
    }

    @Test func openingAndClosingManyLogsLeavesNoThreadBehind() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 1
        let before = logThreads()
        // 300 logs, half closed by close() and half on deinit: one thread left behind by each log of
        // either half makes 150, more than the logs other tests open meanwhile may add.
        for round in 0..<300 {
            let log = try EventLog(path: dir.file(), options: options)
            if round == 0 {
                try log.createStream("s")
                // The count below means something only if the log's threads are found by their names.
                #expect(pollUntil { logThreads().subtracting(before).count >= 2 }, "an open log's writer and checkpointer are not found by name")
            }
            try log.append(incompressibleBytes(5_000, seed: UInt64(round + 1)), to: "s")
            if round % 2 == 0 { log.close() }  // the others close from deinit
        }
        // Threads end just after close() returns: wait for them, allowing for other tests' logs.
        #expect(
            pollUntil(timeout: .seconds(30)) { logThreads().subtracting(before).count <= 100 },
            "\(logThreads().subtracting(before).count) more log threads than before 300 logs")
        let log = try EventLog(path: dir.file())
        #expect(try log.readAll("s").count == 300)
        #expect(try log.verify().isClean)
    }

    @Test func appendsFromEightThreadsBesideASlowReaderNeverStall() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.checkpointPages = 16
        // Anything that waited for the reader waits until it lets go, which the reader then sees.
        options.busyTimeoutMilliseconds = 600_000
        let log = try EventLog(path: dir.file(), options: options)
        defer { log.close() }
        try log.createStream("s")
        for index in 0..<10 { try log.append(samplePayload(index), to: "s") }
        // The reader holds its snapshot until every append is answered: appends that waited for it
        // would keep it waiting for good (here, until the suite's patience runs out).
        let reading = DispatchSemaphore(value: 0)
        let appended = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let heldThroughout = Mutex(false)
        let reader = Thread {
            var first = true
            _ = try? log.read("s", from: .streamDefault) { _ in
                if first {
                    first = false
                    reading.signal()
                    let answered = appended.wait(timeout: .now() + patience.timeInterval) == .success
                    heldThroughout.withLock { $0 = answered }
                }
                return true
            }
            readerDone.signal()
        }
        reader.start()
        reading.wait()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<300 {
                _ = try? log.append(incompressibleBytes(3_000, seed: UInt64(thread * 1_000 + index + 1)), to: "s")
            }
        }
        appended.signal()
        readerDone.wait()
        #expect(heldThroughout.withLock { $0 }, "the appends waited for the reader to let go of its snapshot")
        #expect(try log.readAll("s").count == 10 + 8 * 300)
        #expect(try log.verify().isClean)
    }
}
