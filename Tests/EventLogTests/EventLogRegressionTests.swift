import Dispatch
import Foundation
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// Regression tests from a review of the event log: each failed before its fix (R-numbers as in the
/// review), or checks edges the review found sound and that must stay so.
@Suite struct EventLogRegressionTests {
    // R1: an append whose BEGIN IMMEDIATE fails (another writer holds the lock) is never answered.
    @Test func appendWhoseTransactionCannotBeginIsAnswered() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.busyTimeoutMilliseconds = 50
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        let other = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 0)
        try other.execute("BEGIN IMMEDIATE")
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<AppendReceipt, EventLogError>?>(nil)
        log.append([1], to: "s") { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        // A generous wait: an answer that came after the ROLLBACK below would be an acknowledgement.
        let answered = done.wait(timeout: .now() + 60) == .success
        try other.execute("ROLLBACK")
        #expect(answered, "the append was neither acknowledged nor failed (its completion never ran)")
        // Refused while the other writer held the lock: nothing stored, and the log works afterwards.
        #expect(outcome.withLock { $0.map { (try? $0.get()) == nil } } == true)
        #expect(try log.append([2], to: "s").sequence == 1)
    }

    // R2: a persistent subject's publish reads its range from disk; events trimmed by retention are
    // skipped, the cursor moves past them, and the live notification that carries them is dropped.
    @Test func persistentSubjectDeliversEveryLiveValueOfACapacityOneStream() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        let subject = try PersistentReplaySubject<Int>(
            log: log, stream: "s", policy: StreamPolicy(capacity: .last))
        let seen = Mutex<[Int]>([])
        let disposable = subject.signal.observeValues { value in seen.withLock { $0.append(value) } }
        // Hold the notification queue, as a busy observer of any stream does.
        let hold = DispatchSemaphore(value: 0)
        log.observers.enqueue { hold.wait() }
        // Another writer of the stream in this process (or a second subject on it).
        try log.append(JSONEventCodec().encode(1), to: "s")
        try subject.append(2)
        hold.signal()
        log.observers.drain()
        let final = seen.withLock { $0 }
        #expect(final == [1, 2], "the observer was attached before 1 was appended, so it must see 1 live")
        disposable.dispose()
    }

    // R2b: the same with two threads publishing through one replay-last subject, no test hooks.
    @Test func concurrentPublishersOnAReplayLastSubjectLoseNoLiveValue() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        let subject = try PersistentReplaySubject<Int>(
            log: log, stream: "s", policy: StreamPolicy(capacity: .last))
        let count = Atomic<Int>(0)
        let disposable = subject.signal.observeValues { _ in count.add(1, ordering: .relaxed) }
        let perThread = 300
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<perThread { _ = try? subject.append(thread * 10_000 + index) }
        }
        log.observers.drain()
        #expect(count.load(ordering: .relaxed) == 2 * perThread)
        disposable.dispose()
    }

    // R3: follow from a position past the current end delivers live events before that position.
    @Test func followFromASequencePastTheEndStartsThere() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        for index in 0..<3 { try log.append(samplePayload(index), to: "s") }
        let got = Mutex<[UInt64]>([])
        let observation = try log.follow("s", from: .from(sequence: 10)) { event in
            got.withLock { $0.append(event.sequence) }
        }
        for index in 0..<8 { try log.append(samplePayload(index), to: "s") }  // 4...11
        log.observers.drain()
        let sequences = got.withLock { $0 }
        #expect(sequences == [10, 11])
        observation.cancel()
    }

    @Test func followSinceAFutureTimeStartsThere() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        let log = try EventLog(path: dir.file(), options: clock.options())
        try log.createStream("s")
        let got = Mutex<[UInt64]>([])
        let observation = try log.follow("s", from: .since(microseconds: clock.now + 1_000)) { event in
            got.withLock { $0.append(event.sequence) }
        }
        try log.append([1], to: "s")  // at now: before the requested time
        clock.advance(by: 2_000)
        try log.append([2], to: "s")  // after it
        log.observers.drain()
        let sequences = got.withLock { $0 }
        #expect(sequences == [2])
        observation.cancel()
    }

    // R4: an async append queued just before a synchronous append on the same thread is overtaken by it.
    @Test func appendsFromOneThreadKeepTheirOrder() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        var overtaken = 0
        for round in 0..<200 {
            let first = Mutex<UInt64>(0)
            let done = DispatchSemaphore(value: 0)
            log.append([UInt8(round % 256)], to: "s") { result in
                first.withLock { $0 = (try? result.get().sequence) ?? 0 }
                done.signal()
            }
            let second = try log.append([1], to: "s")
            done.wait()
            if first.withLock({ $0 }) > second.sequence { overtaken += 1 }
        }
        #expect(overtaken == 0, "a later synchronous append got a lower sequence than an earlier queued one")
    }

    // R6: verify traps on two damaged block rows instead of reporting them.
    @Test func verifyReportsCraftedBlocksWithoutTrapping() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append([1], to: "s")
        log.close()
        let raw = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 1000)
        try raw.execute("""
            INSERT INTO blocks VALUES (8796093022208 + 2, 1, 10, 2, 0, 0, -1, 0, 0, 0, x'00');
            INSERT INTO blocks VALUES (8796093022208 + 3, 1, 4, 3, 0, 0, 0, 0, 0, 0, x'');
            """)
        let reopened = try EventLog(path: dir.file())
        let report = try reopened.verify()
        #expect(!report.isClean)
    }

    // R7: a subject kept its old cursor after its stream was deleted and created again, and went silent.
    @Test func aSubjectFollowsItsStreamIntoANewLife() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        let subject = try PersistentReplaySubject<Int>(log: log, stream: "s")
        for value in 0..<5 { try subject.append(value) }
        subject.flush()
        try log.deleteStream("s")
        try log.createStream("s")
        let seen = Mutex<[Int]>([])
        let disposable = subject.signal.observeValues { value in seen.withLock { $0.append(value) } }
        try subject.append(42)
        subject.flush()
        #expect(seen.withLock { $0 } == [42])
        disposable.dispose()
    }

    // R3: one stream's failure inside a shared commit failed every stream in it, under their names.
    @Test func oneStreamsFailureDoesNotFailOtherStreamsInTheSameCommit() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("good")
        try log.createStream("bad")
        for index in 0..<3 { try log.append(samplePayload(index), to: "bad") }
        log.close()
        // Damage: a block of "bad" sits under the key its next append needs (verify reports it).
        let raw = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 1000)
        try raw.execute("UPDATE blocks SET block_key = block_key + 1 WHERE last_seq = 3 AND stream_id = (SELECT id FROM streams WHERE name = 'bad')")
        let reopened = try EventLog(path: dir.file())
        // Hold the writer so that both appends land in one commit.
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? reopened.administer { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 5)
            }
        }
        started.wait()
        let results = Mutex<[String: Result<AppendReceipt, EventLogError>]>([:])
        let group = DispatchGroup()
        for name in ["good", "bad"] {
            group.enter()
            reopened.append([1, 2, 3], to: name) { result in
                results.withLock { $0[name] = result }
                group.leave()
            }
        }
        release.signal()
        group.wait()
        let all = results.withLock { $0 }
        #expect((try? all["good"]?.get()) != nil, "the append to the healthy stream failed because of the other stream")
        #expect((try? all["bad"]?.get()) == nil)
        #expect(try reopened.readAll("good").count == 1)
    }
}

@Suite struct EventLogTrapRegressionTests {
    // R2c: R2 through the public API only: a slow observer of another stream delays the shared
    // notification queue, which is all it takes.
    @Test func aSlowObserverElsewhereDoesNotMakeASubjectLoseALiveValue() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("other")
        let slow = log.observeAppends(to: "other") { _ in Thread.sleep(forTimeInterval: 0.3) }
        let subject = try PersistentReplaySubject<Int>(
            log: log, stream: "s", policy: StreamPolicy(capacity: .last))
        let seen = Mutex<[Int]>([])
        let disposable = subject.signal.observeValues { value in seen.withLock { $0.append(value) } }
        try log.append([0], to: "other")
        try log.append(JSONEventCodec().encode(1), to: "s")
        try subject.append(2)
        log.observers.drain()
        let final = seen.withLock { $0 }
        #expect(final == [1, 2])
        disposable.dispose()
        slow.cancel()
    }

    // R6: a maxAge too long for microseconds in an Int64 trapped the writer; it is refused instead.
    @Test func hugeMaxAgeIsRefusedNotATrap() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        let error = try #require(throws: EventLogError.self) {
            try log.createStream("s", policy: StreamPolicy(maxAge: .seconds(10_000_000_000_000)))
        }
        #expect(error.code == .invalidArgument)
        try log.createStream("s", policy: StreamPolicy(maxAge: .seconds(86_400)))
    }

    // R7: StreamInfo.retainedCount traps on a catalog row whose first_seq is past last_seq + 1.
    @Test func retainedCountOfADamagedCatalogRowIsNotATrap() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        log.close()
        let raw = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 1000)
        try raw.execute("UPDATE streams SET first_seq = 100, last_seq = 5")
        let reopened = try EventLog(path: dir.file())
        let report = try reopened.verify()
        let info = try #require(try reopened.streamInfo("s"))
        #expect(info.count == 0)
        #expect(!report.problems.isEmpty)
    }
}

struct ReviewNested: Codable, Equatable, Sendable {
    var a: Int
    var b: String?
    var c: [Double]
    var d: [String: [UInt8]]
    var e: [ReviewInner]
}
struct ReviewInner: Codable, Equatable, Sendable {
    var x: Int8
    var y: Bool
    var z: UInt64?
}

@Suite struct EventLogInputRegressionTests {
    @Test func mutatedBinaryValuesDecodeOrThrowNeverCrash() throws {
        let codec = BinaryEventCodec()
        let value = ReviewNested(
            a: -5, b: "héllo", c: [1.5, -2], d: ["k": [1, 2, 3], "": []],
            e: [ReviewInner(x: -3, y: true, z: nil), ReviewInner(x: 7, y: false, z: .max)])
        let bytes = try codec.encode(value)
        #expect(try codec.decode(ReviewNested.self, from: bytes) == value)
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var decoded = 0
        for _ in 0..<30_000 {
            var mutated = bytes
            for _ in 0..<(1 + Int(next() % 4)) {
                let index = Int(next() % UInt64(mutated.count))
                switch next() % 3 {
                case 0: mutated[index] = UInt8(truncatingIfNeeded: next())
                case 1: mutated.remove(at: index)
                default: mutated.insert(UInt8(truncatingIfNeeded: next()), at: index)
                }
                if mutated.isEmpty { break }
            }
            if (try? codec.decode(ReviewNested.self, from: mutated)) != nil { decoded += 1 }
        }
    }


    // R9: an option value the init accepts traps when the writer is built.
    @Test func hugeMaximumBlockBytesIsRefusedNotATrap() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.maximumBlockBytes = .max
        expectLogError(.invalidArgument) { _ = try EventLog(path: dir.file(), options: options) }
    }
}


@Suite struct EventLogHangRegressionTests {
    // R1b: the synchronous append (which leads its own commit) blocks its caller forever, even after
    // the other writer let go of the lock.
    @Test func synchronousAppendDuringAnotherWritersLockReturns() throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.busyTimeoutMilliseconds = 50
        let log = try EventLog(path: dir.file(), options: options)
        try log.createStream("s")
        let other = try SQLiteConnection(path: dir.file(), readOnly: false, create: false, busyTimeoutMilliseconds: 0)
        try other.execute("BEGIN IMMEDIATE")
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? log.append([1], to: "s")
            returned.signal()
        }
        Thread.sleep(forTimeInterval: 1)
        try other.execute("ROLLBACK")
        let answered = returned.wait(timeout: .now() + 60) == .success
        #expect(answered, "log.append(_:to:) has not returned 60 s after the lock was released")
    }
}

@Suite struct EventLogEdgeTests {
    @Test func positionsAndTruncationEdges() throws {
        let dir = TemporaryDirectory()
        let clock = ManualClock()
        var base = EventLogOptions()
        base.maximumEventsPerBlock = 4
        let log = try EventLog(path: dir.file(), options: clock.options(base))
        try log.createStream("s", policy: StreamPolicy(capacity: .last(5)))
        var times: [Int64] = []
        for index in 0..<10 {  // 1...10, one commit each, distinct timestamps
            times.append(clock.now)
            try log.append(contentsOf: [samplePayload(index)], to: "s")
            clock.advance(by: 10)
        }
        try log.append(contentsOf: (0..<10).map(samplePayload), to: "s")  // 11...20 in 3 blocks
        #expect(try log.readAll("s").map(\.sequence) == Array(16...20))
        #expect(try log.readAll("s", from: .last(3)).map(\.sequence) == [18, 19, 20])
        #expect(try log.readAll("s", from: .last(0)).isEmpty)
        #expect(try log.readAll("s", from: .last(.max)).map(\.sequence) == Array(16...20))
        #expect(try log.readAll("s", from: .from(sequence: 2)).map(\.sequence) == Array(16...20))
        #expect(try log.readAll("s", from: .from(sequence: 17)).map(\.sequence) == Array(17...20))
        #expect(try log.readAll("s", from: .from(sequence: .max)).isEmpty)
        #expect(try log.readAll("s", from: .since(microseconds: .min)).map(\.sequence) == Array(16...20))
        #expect(try log.readAll("s", from: .since(microseconds: .max)).isEmpty)
        var cursor = try log.events(in: "s", from: .from(sequence: 19))
        #expect(try cursor.next()?.sequence == 19)
        cursor = try log.events(in: "s", from: .newOnly)
        #expect(try cursor.next() == nil)
        let after = try log.truncate("s", keepingLast: 0)
        #expect(after.firstSequence == 21 && after.lastSequence == 20 && after.storedBytes == 0)
        try log.truncate("s", before: .max)
        try log.truncate("s", keepingLast: .max)
        try log.truncate("s", olderThan: .max)
        try log.truncate("s", olderThan: .min)
        #expect(try log.append([1], to: "s").sequence == 21)
        #expect(try log.verify().isClean)

        let t = try log.createStream("t")
        _ = t
        for index in 0..<6 {  // one commit per timestamp step
            try log.append(samplePayload(index), to: "t")
            clock.advance(by: 100)
        }
        let events = try log.readAll("t")
        let boundary = events[3].timestamp
        #expect(try log.readAll("t", from: .since(microseconds: boundary)).map(\.sequence) == [4, 5, 6])
        #expect(try log.readAll("t", from: .since(microseconds: boundary - 1)).map(\.sequence) == [4, 5, 6])
        #expect(try log.readAll("t", from: .since(microseconds: boundary + 1)).map(\.sequence) == [5, 6])
        try log.truncate("t", olderThan: boundary)
        #expect(try log.readAll("t").map(\.sequence) == [4, 5, 6])
    }
}
