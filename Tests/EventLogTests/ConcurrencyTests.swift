import Dispatch
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct ConcurrencyTests {
    /// Also with the WAL index in memory (`exclusiveToProcess`), which readers, the writer and the
    /// checkpointer (every 64 pages here) then share without the `-shm` file's locks.
    @Test(arguments: [false, true])
    func manyAppendersAndReadersAtOnceLeaveNoGapAndNoDuplicate(exclusiveToProcess: Bool) throws {
        let dir = TemporaryDirectory()
        var options = EventLogOptions()
        options.exclusiveToProcess = exclusiveToProcess
        options.checkpointPages = 64
        let log = try EventLog(path: dir.file(), options: options)
        let streams = ["a", "b", "c"]
        for name in streams { try log.createStream(name) }
        let threads = 8, perThread = 150
        let receipts = Mutex<[String: [ClosedRange<UInt64>]]>([:])
        let failures = Atomic<Int>(0)
        let readerFailures = Atomic<Int>(0)
        let writersDone = Atomic<Bool>(false)

        let group = DispatchGroup()
        for reader in 0..<2 {
            DispatchQueue.global().async(group: group) {
                while !writersDone.load(ordering: .acquiring) {
                    do {
                        let events = try log.readAll(streams[reader])
                        for (offset, event) in events.enumerated() where event.sequence != UInt64(offset + 1) {
                            readerFailures.add(1, ordering: .relaxed)
                            break
                        }
                    } catch {
                        readerFailures.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let stream = streams[(thread + index) % streams.count]
                do {
                    let receipt = index % 10 == 0
                        ? try log.append(contentsOf: [samplePayload(index), samplePayload(index + 1)], to: stream)
                        : try log.append(samplePayload(thread * 1_000 + index), to: stream)
                    receipts.withLock { $0[stream, default: []].append(receipt.sequences) }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        writersDone.store(true, ordering: .releasing)
        group.wait()
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(readerFailures.load(ordering: .relaxed) == 0)

        let all = receipts.withLock { $0 }
        var total = 0
        for name in streams {
            let acknowledged = (all[name] ?? []).flatMap { Array($0) }.sorted()
            total += acknowledged.count
            #expect(acknowledged == Array(1...UInt64(acknowledged.count)), "stream \(name): acknowledged sequences are 1...n")
            let stored = try log.readAll(name).map(\.sequence)
            #expect(stored == acknowledged)
        }
        #expect(total == threads * perThread + threads * (perThread / 10))
        let report = try log.verify()
        #expect(report.isClean, "\(report)")
    }

    @Test func appendsQueuedWhileTheWriterIsBusyShareOneCommit() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        // Hold the writer thread so the appends below pile up in its queue. Wait until it holds: a
        // writer waking while they are queued could take the first few along with the admin job.
        #expect(log.queue.push(.admin { _ in
            holding.signal()
            release.wait()
        }))
        holding.wait()
        let receipts = Mutex<[AppendReceipt]>([])
        let acknowledged = DispatchGroup()
        for index in 0..<50 {
            acknowledged.enter()
            log.append(samplePayload(index), to: "s") { result in
                if case .success(let receipt) = result { receipts.withLock { $0.append(receipt) } }
                acknowledged.leave()
            }
        }
        #expect(receipts.withLock { $0.isEmpty }, "nothing is acknowledged before its commit")
        release.signal()
        acknowledged.wait()
        let all = receipts.withLock { $0 }
        #expect(all.map(\.sequence).sorted() == Array(1...50))
        #expect(Set(all.map(\.timestamp)).count == 1, "one commit, one timestamp")
        #expect(try log.verify().blockCount == 1)
    }

    @Test func liveObserversSeeEveryCommitInOrderAfterItIsDurable() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.createStream("other")
        try log.append([0], to: "s")
        let seen = Mutex<[UInt64]>([])
        let durable = Atomic<Int>(0)
        let callbacks = Atomic<Int>(0)
        let observation = log.observeAppends(to: "s") { append in
            callbacks.add(1, ordering: .relaxed)
            // Each observed event is already readable from the database.
            if let info = try? log.streamInfo("s"), info.lastSequence >= append.lastSequence {
                durable.add(1, ordering: .relaxed)
            }
            seen.withLock { $0.append(contentsOf: append.events.map(\.sequence)) }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<25 { _ = try? log.append(samplePayload(thread * 100 + index), to: "s") }
        }
        try log.append([9], to: "other")
        try log.appendCompleted(to: "s")
        log.observers.drain()
        let sequences = seen.withLock { $0 }
        #expect(sequences == Array(2...102))
        #expect(callbacks.load(ordering: .relaxed) > 0)
        #expect(durable.load(ordering: .relaxed) == callbacks.load(ordering: .relaxed), "every callback finds its events in the database")

        observation.cancel()
        try log.deleteStream("s")
        try log.createStream("s")
        try log.append([1], to: "s")
        log.observers.drain()
        #expect(seen.withLock { $0.count } == 101, "no callbacks after cancel")
    }

    @Test func closingTheLogFromAnObserverCallbackDoesNotDeadlock() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        let closed = DispatchSemaphore(value: 0)
        let observation = log.observeAppends(to: "s") { _ in
            log.close()
            closed.signal()
        }
        try log.append([1], to: "s")
        closed.wait()
        expectLogError(.closed) { try log.append([2], to: "s") }
        observation.cancel()
    }

    @Test func readersOnTheirOwnConnectionsDoNotBlockTheWriter() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<600).map(samplePayload), to: "s")
        let cursor = try log.events(in: "s")
        _ = try cursor.next()
        // The cursor is mid-stream on its own connection; appends still commit and show up in it.
        for index in 0..<10 { try log.append(samplePayload(index), to: "s") }
        var count = 1
        while try cursor.next() != nil { count += 1 }
        #expect(count == 610)
    }
}
