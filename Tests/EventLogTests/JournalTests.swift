import Dispatch
import Foundation
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

/// A journaled log (`EventLogOptions.journal`): appends are acknowledged once in `<db>.journal` and
/// stored in the database later, and nothing a reader or a crash can see tells the difference.
@Suite struct JournalTests {
    static func journaled(_ durability: Durability = .normal) -> EventLogOptions {
        var options = EventLogOptions()
        options.exclusiveToProcess = true
        options.journal = true
        options.durability = durability
        return options
    }

    /// Holds the log's writer inside a job of its own (after it stored what waited) until `release`
    /// is signalled, so appends made meanwhile stay in the journal only. (Append to a stream once
    /// before: the sequencer asks the writer about a stream the first time.)
    static func holdWriter(of log: EventLog) -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        #expect(log.queue.push(.admin { _ in
            holding.signal()
            release.wait()
        }))
        holding.wait()
        return release
    }

    /// Copies the database, its WAL and its journal to `directory` as they are now: what a crash of
    /// the process at this moment would leave on disk.
    static func crashImage(of path: String, into directory: TemporaryDirectory) throws -> String {
        let copy = directory.file()
        for suffix in ["", "-wal", ".journal", ".marks"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        return copy
    }

    /// A crash image in `crash` of a journaled log that `setUp` filled (appending to "s" at least once)
    /// and whose last appends, `journalOnly` to "s", are in its journal and not in its database.
    static func imageWithJournalOnly(
        _ journalOnly: [[UInt8]], in crash: TemporaryDirectory, after setUp: (EventLog) throws -> Void
    ) throws -> String {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: journaled())
        try setUp(log)
        let release = holdWriter(of: log)
        for payload in journalOnly { try log.append(payload, to: "s") }
        let image = try crashImage(of: dir.file(), into: crash)
        release.signal()
        log.close()
        return image
    }

    @Test(arguments: [Durability.normal, .full])
    func appendsAreReadAndObservedAsSoonAsTheyAreAcknowledged(durability: Durability) throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled(durability))
        defer { log.close() }
        try log.createStream("s")
        let observed = Mutex<[UInt64]>([])
        let observation = log.observeAppends(to: "s") { append in observed.withLock { $0 += append.events.map(\.sequence) } }
        defer { observation.cancel() }
        for index in 0..<50 {
            let receipt = try log.append(samplePayload(index), to: "s")
            #expect(receipt.firstSequence == UInt64(index + 1))
            // Read at once: the reader waits for what was acknowledged before it.
            #expect(try log.streamInfo("s")?.lastSequence == UInt64(index + 1))
        }
        let events = try log.readAll("s", from: .all)
        #expect(events.map(\.payload) == (0..<50).map(samplePayload))
        log.waitForObservers()
        #expect(observed.withLock { $0 } == Array(1...50))
    }

    @Test func manyAppendersShareJournalWritesAndLeaveNoGap() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled())
        defer { log.close() }
        try log.createStream("s")
        let sequences = Mutex<[UInt64]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<400 {
                if let receipt = try? log.append(samplePayload(thread * 1_000 + index), to: "s") {
                    sequences.withLock { $0.append(receipt.firstSequence) }
                }
            }
        }
        #expect(sequences.withLock { $0.sorted() } == Array(1...3_200))
        let events = try log.readAll("s", from: .all)
        expectContiguous(events, from: 1)
        #expect(events.count == 3_200)
    }

    @Test func aCursorSeesAppendsMadeAfterItWasOpened() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled())
        defer { log.close() }
        try log.createStream("s")
        try log.append([1], to: "s")
        let cursor = try log.events(in: "s", from: .all)
        #expect(try cursor.next()?.sequence == 1)
        #expect(try cursor.next() == nil)
        try log.append([2], to: "s")
        #expect(try cursor.next()?.sequence == 2)
    }

    @Test func aCleanCloseLeavesEverythingInTheDatabaseAndTheJournalEmpty() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled())
        try log.createStream("s")
        for index in 0..<100 { try log.append(samplePayload(index), to: "s") }
        log.close()
        let journal = try #require(try Journal.openForReading(forDatabase: dir.file()))
        #expect(try journal.records().isEmpty)
        var readOnly = EventLogOptions()
        readOnly.readOnly = true
        let reader = try EventLog(path: dir.file(), options: readOnly)
        defer { reader.close() }
        #expect(try reader.readAll("s", from: .all).count == 100)
    }

    @Test func whatOnlyTheJournalHeldIsStoredWhenTheLogOpensAgain() throws {
        let crash = TemporaryDirectory()
        let image = try Self.imageWithJournalOnly((10..<30).map(samplePayload), in: crash) { log in
            try log.createStream("s")
            for index in 0..<10 { try log.append(samplePayload(index), to: "s") }
        }

        let journal = try #require(try Journal.openForReading(forDatabase: image))
        #expect(try journal.records().reduce(0) { $0 + $1.payloads.count } == 30, "the image's journal holds every append since it started over")
        var readOnly = EventLogOptions()
        readOnly.readOnly = true
        let refusal = expectLogError(.busy) { _ = try EventLog(path: image, options: readOnly) }
        #expect(refusal?.message.contains("20 acknowledged events") == true, "the image's database lacks the 20 appends made while the writer was held")
        let reopened = try EventLog(path: image, options: Self.journaled())
        defer { reopened.close() }
        #expect(try reopened.readAll("s", from: .all).map(\.payload) == (0..<30).map(samplePayload))
        #expect(try reopened.append([1], to: "s").firstSequence == 31, "no acknowledged sequence is handed out again")
        #expect(try reopened.verify().isClean)
    }

    @Test func aLogOpenedWithoutTheJournalStillStoresWhatAJournalLeft() throws {
        let crash = TemporaryDirectory()
        let image = try Self.imageWithJournalOnly((1..<5).map(samplePayload), in: crash) { log in
            try log.createStream("s")
            try log.append(samplePayload(0), to: "s")
        }

        let plain = try EventLog(path: image)
        defer { plain.close() }
        #expect(try plain.readAll("s", from: .all).count == 5)
        #expect(try plain.append([1], to: "s").firstSequence == 6)
    }

    @Test func aReadOnlyOpenRefusesALogWhoseJournalHoldsEventsTheDatabaseDoesNot() throws {
        let crash = TemporaryDirectory()
        let image = try Self.imageWithJournalOnly((1..<8).map(samplePayload), in: crash) { log in
            try log.createStream("s")
            try log.append(samplePayload(0), to: "s")
        }

        var readOnly = EventLogOptions()
        readOnly.readOnly = true
        let refusal = try #require(expectLogError(.busy) { _ = try EventLog(path: image, options: readOnly) })
        #expect(refusal.message.contains("7 acknowledged events"), "\(refusal.message)")
        #expect(refusal.message.contains(image + ".journal"), "\(refusal.message)")
        // Opened for writing once, it reads like any other.
        try EventLog(path: image).close()
        let reader = try EventLog(path: image, options: readOnly)
        defer { reader.close() }
        #expect(try reader.readAll("s", from: .all).count == 8)
    }

    @Test func theJournalStartsOverOnceTheWriterStoredAllItHolds() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled())
        defer { log.close() }
        try log.createStream("s")
        let payload = [UInt8](repeating: 0x61, count: 1_000)
        let batch = [[UInt8]](repeating: payload, count: 100)
        // 6 MB through the journal, in appends of 100 KB.
        for _ in 0..<60 { try log.append(contentsOf: batch, to: "s") }
        let size = try FileManager.default.attributesOfItem(atPath: dir.file() + ".journal")[.size] as? Int ?? 0
        #expect(size < Sequencer.resetBytes + 200_000, "the journal grew to \(size) bytes")
        #expect(try log.streamInfo("s")?.lastSequence == 6_000)
        expectContiguous(try log.readAll("s", from: .all), from: 1)
    }

    @Test func catalogChangesSeeEveryJournaledAppend() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file(), options: Self.journaled())
        defer { log.close() }
        try log.createStream("s", policy: StreamPolicy(capacity: .last(5)))
        for index in 0..<20 { try log.append(samplePayload(index), to: "s") }
        #expect(try log.truncate("s", keepingLast: 2).firstSequence == 19)
        try log.deleteStream("s")
        try log.createStream("s")
        #expect(try log.append([9], to: "s").firstSequence == 1, "a re-created stream starts at 1, with none of the old appends")
        #expect(try log.readAll("s", from: .all).map(\.payload) == [[9]])
        try log.appendCompleted(to: "s")
        expectLogError(.streamEnded) { try log.append([1], to: "s") }
    }

    @Test func aJournaledLogMustBeExclusiveToItsProcess() {
        let dir = TemporaryDirectory()
        var options = Self.journaled()
        options.exclusiveToProcess = false
        let error = expectLogError(.invalidArgument) { _ = try EventLog(path: dir.file(), options: options) }
        #expect(error?.message.contains("exclusiveToProcess") == true)
    }

    @Test func aSymbolicLinkPlantedAtTheJournalIsRefusedAndItsTargetLeftAlone() throws {
        let dir = TemporaryDirectory()
        let target = dir.file("target")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: dir.file() + ".journal", withDestinationPath: target)
        let error = expectLogError(.io) { _ = try EventLog(path: dir.file(), options: Self.journaled()) }
        #expect(error?.message.contains("symbolic link") == true, "\(error?.message ?? "")")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }
}
