import Dispatch
import Synchronization
import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct FollowTests {
    @Test func followDeliversHistoryThenLiveWithNoGapOrDuplicateWhileAppendsRace() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s")
        try log.append(contentsOf: (0..<2_000).map(samplePayload), to: "s")
        let seen = Mutex<[UInt64]>([])
        let writers = DispatchGroup()
        DispatchQueue.global().async(group: writers) {
            for index in 0..<300 { _ = try? log.append(samplePayload(index), to: "s") }
        }
        let observation = try log.follow("s", from: .all) { event in
            seen.withLock { $0.append(event.sequence) }
        }
        writers.wait()
        try log.appendCompleted(to: "s")
        log.observers.drain()
        #expect(seen.withLock { $0 } == Array(1...2_301))
        observation.cancel()
    }

    @Test func followStartsAtTheRequestedPositionAndSeesTheTerminalEvent() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        try log.createStream("s", policy: StreamPolicy(replay: .last(2)))
        try log.append(contentsOf: [[1], [2], [3]], to: "s")
        let seen = Mutex<[LogEvent]>([])
        let observation = try log.follow("s") { event in seen.withLock { $0.append(event) } }
        try log.append([4], to: "s")
        try log.appendFailed(to: "s", message: "gone")
        log.observers.drain()
        let events = seen.withLock { $0 }
        #expect(events.map(\.sequence) == [2, 3, 4, 5])
        #expect(events.last?.failureMessage == "gone")
        observation.cancel()
    }

    @Test func followingAMissingStreamThrows() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        expectLogError(.streamNotFound) { _ = try log.follow("nope") { _ in } }
    }
}
