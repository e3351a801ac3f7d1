import Foundation
import StreamdTestSupport
import Reactive
import Testing
@testable import EventLog

/// The persistent `replay` family and history across processes, with a real child process
/// (`persistence-child`) on the same database.
@Suite struct PersistentReplayTests {
    /// Runs the child with `arguments` to the end and returns its output lines.
    private func runChild(_ arguments: [String]) throws -> [String] {
        let child = URL(fileURLWithPath: CrashSafetyTests.childPath).deletingLastPathComponent()
            .appendingPathComponent("persistence-child").path
        try #require(FileManager.default.isExecutableFile(atPath: child), "build the persistence-child target: \(child)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: child)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let status = process.waitForExitStatus() ?? -1
        #expect(status == 0, "persistence-child \(arguments) exited \(status)")
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func valuesPublishedByAnotherProcessAreReplayedHere() throws {
        let directory = TemporaryDirectory()
        #expect(try runChild(["publish", directory.file(), "readings", "20"]) == ["published"])
        let log = try EventLog(path: directory.file())
        let subject = try PersistentReplaySubject<Reading>(log: log, stream: "readings")
        let recorder = StreamRecorder<Reading>()
        subject.observe(recorder.observer)
        #expect(recorder.values.map(\.value) == Array(0..<20))
        #expect(recorder.events.last == .completed)
    }

    @Test func anExpensiveRequestRunsOnceAndItsResultsAreThereForTheNextLaunch() throws {
        let directory = TemporaryDirectory()
        let first = try runChild(["replay", directory.file(), "request"])
        #expect(first == ["request ran", "1", "2", "3", "4", "5", "completed"])
        let second = try runChild(["replay", directory.file(), "request"])
        #expect(second == ["1", "2", "3", "4", "5", "completed"])
    }

    @Test func replayConnectsAtOnceAndLateStartsGetEveryValue() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let runs = Counter()
        let (feed, input) = Signal<Int, Never>.pipe()
        let replayed = try SignalProducer(feed).on(starting: { runs.increment() })
            .replay(persistingTo: log, stream: "feed")
        #expect(runs.value == 1)
        input.send(value: 1)
        input.send(value: 2)
        let late = StreamRecorder<Int>()
        replayed.start(late.observer)
        input.send(value: 3)
        log.waitForObservers()
        #expect(late.values == [1, 2, 3])
        #expect(try log.readAll("feed").count == 3)
        #expect(runs.value == 1)
    }

    @Test func replayLazilyRunsNothingUntilTheFirstStart() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let runs = Counter()
        let replayed = try SignalProducer<Int, Never>([7, 8]).on(starting: { runs.increment() })
            .replayLazily(persistingTo: log, stream: "lazy")
        #expect(runs.value == 0)
        let recorder = StreamRecorder<Int>()
        replayed.start(recorder.observer)
        log.waitForObservers()
        #expect(runs.value == 1)
        #expect(recorder.events == [.value(7), .value(8), .completed])
    }

    @Test func replayLastKeepsOnlyTheLatestValueForTheNextLaunch() throws {
        let directory = TemporaryDirectory()
        do {
            let log = try EventLog(path: directory.file())
            _ = try SignalProducer<Int, Never>([1, 2, 3]).replayLast(persistingTo: log, stream: "price")
            log.close()
        }
        let log = try EventLog(path: directory.file())
        let recorder = StreamRecorder<Int>()
        try SignalProducer<Int, Never>.never.replayLast(persistingTo: log, stream: "price").start(recorder.observer)
        #expect(recorder.events == [.value(3), .completed])
    }

    @Test func aSourceFailureIsStoredAsItsDescription() throws {
        struct Offline: Error, CustomStringConvertible { var description: String { "sensor offline" } }
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let recorder = StreamRecorder<Int>()
        try SignalProducer<Int, Offline>(error: Offline()).replay(persistingTo: log, stream: "offline")
            .start(recorder.observer)
        log.waitForObservers()
        #expect(recorder.events == [.failed(StreamFailure("sensor offline"))])
        #expect(try log.streamInfo("offline")?.state == .failed)
    }

    @Test func aPersistentAutoconnectionAppendsWhileSubscribedAndDisconnectsWhenTheLastLeaves() throws {
        let directory = TemporaryDirectory()
        let log = try EventLog(path: directory.file())
        let cancelled = Counter()
        let (feed, input) = Signal<Int, Never>.pipe()
        let source = SignalProducer(feed).on(disposed: { cancelled.increment() })
        let shared = try source.multicast(persistingTo: log, stream: "auto").autoconnect()
        let recorder = StreamRecorder<Int>()
        let subscription = shared.start(recorder.observer)
        input.send(value: 1)
        log.waitForObservers()
        subscription.dispose()
        input.send(value: 2)
        #expect(recorder.values == [1])
        #expect(cancelled.value == 1)
        #expect(try log.readAll("auto").count == 1)
    }
}
