import Foundation
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// Readers running beside appends that leave the catalog row behind: positions never go back, and
/// every event is seen once, in order.
@Suite struct UnsavedTailConcurrencyTests {
    @Test func readersBesideTwoLogsAppendingToOneFileSeeEveryEventOnceAndPositionsNeverGoBack() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumEventsPerBlock = 8
        let first = try EventLog(path: dir.file(), options: options)
        let second = try EventLog(path: dir.file(), options: options)
        try first.createStream("s")
        let appenders = 4, rounds = 400
        let appended = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let problems = Mutex<[String]>([])
        let group = DispatchGroup()
        for thread in 0..<appenders {
            DispatchQueue.global().async(group: group) {
                let log = thread % 2 == 0 ? first : second
                do {
                    for round in 0..<rounds {
                        let count = round % 10 == 0 ? 40 + round : 1 + round % 3
                        try log.append(contentsOf: (0..<count).map { samplePayload(thread * 100_000 + round * 1_000 + $0) }, to: "s")
                        appended.add(count, ordering: .relaxed)
                    }
                } catch {
                    problems.withLock { $0.append("append: \(error)") }
                }
            }
        }
        let readers = DispatchGroup()
        // Positions, as streamInfo loads them, never go back, and stored bytes match what reads see.
        DispatchQueue.global().async(group: readers) {
            var lastSeen: UInt64 = 0
            var bytes: UInt64 = 0
            while !done.load(ordering: .acquiring) {
                do {
                    guard let info = try second.streamInfo("s") else { continue }
                    if info.lastSequence < lastSeen || info.storedBytes < bytes {
                        problems.withLock { $0.append("info went back: \(info.lastSequence) after \(lastSeen)") }
                    }
                    lastSeen = info.lastSequence
                    bytes = info.storedBytes
                } catch {
                    problems.withLock { $0.append("info: \(error)") }
                }
            }
        }
        // A cursor polled while appends go on delivers 1, 2, 3, ... with no gap or repeat.
        let cursorSeen = Atomic<UInt64>(0)
        DispatchQueue.global().async(group: readers) {
            do {
                let cursor = try first.events(in: "s", from: .all)
                var expected: UInt64 = 1
                while true {
                    let finished = done.load(ordering: .acquiring)
                    while let event = try cursor.next() {
                        if event.sequence != expected {
                            problems.withLock { $0.append("cursor: \(event.sequence), expected \(expected)") }
                        }
                        expected = event.sequence + 1
                    }
                    if finished { break }
                }
                cursorSeen.store(expected - 1, ordering: .relaxed)
            } catch {
                problems.withLock { $0.append("cursor: \(error)") }
            }
        }
        group.wait()
        done.store(true, ordering: .releasing)
        readers.wait()
        #expect(problems.withLock { $0 } == [])
        let total = UInt64(appended.load(ordering: .relaxed))
        for log in [first, second] {
            let info = try #require(try log.streamInfo("s"))
            #expect(info.lastSequence == total)
            #expect(info.storedBytes == Int64(try log.storageFigures(of: "s").storedBytes))
            #expect(try log.readAll("s").count == Int(total))
        }
        #expect(cursorSeen.load(ordering: .relaxed) == total)
        #expect(try first.append([1], to: "s").sequence == total + 1)
        #expect(try second.append([2], to: "s").sequence == total + 2)
        #expect(try first.verify().isClean)
    }
}
