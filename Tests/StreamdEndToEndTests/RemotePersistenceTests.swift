import Foundation
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// `replay`, `replayLast`, `replayLazily` and `multicast` persisting to `streamd`: an expensive source
/// runs once across connections, processes and daemon restarts.
@Suite struct RemotePersistenceTests {
    /// A source that counts its starts, then sends `values` and ends as `failure` says.
    private static func counted(
        _ starts: Locked<Int>, values: [Int], failure: String? = nil
    ) -> SignalProducer<Int, StreamFailure> {
        SignalProducer { observer, _ in
            starts.withLock { $0 += 1 }
            for value in values { observer.send(value: value) }
            if let failure { observer.send(error: StreamFailure(failure)) } else { observer.sendCompleted() }
        }
    }

    @Test func aReplayedSourceRunsOnceAcrossTwoConnectionsAndNotAgainAfterARestart() async throws {
        let daemon = try DaemonFixture()
        let starts = Locked(0)
        let first = try await StreamConnection.connect(socketPath: daemon.socket)
        let replayed = try await Self.counted(starts, values: [1, 2, 3])
            .replay(persistingTo: first, stream: "costly", policy: StreamPolicy(capacity: .last(100)))
        #expect(try await Run.collect(replayed) == .init(values: [1, 2, 3], ending: .completed))
        #expect(starts.value == 1)
        #expect(try await first.streamInfo("costly").policy == StreamPolicy(capacity: .last(100)))

        let second = try await StreamConnection.connect(socketPath: daemon.socket)
        let again = try await Self.counted(starts, values: [9]).replay(persistingTo: second, stream: "costly")
        #expect(try await Run.collect(again) == .init(values: [1, 2, 3], ending: .completed))
        #expect(starts.value == 1)
        first.close()
        second.close()

        try daemon.restart(after: SIGKILL)
        let third = try await StreamConnection.connect(socketPath: daemon.socket)
        let afterRestart = try await Self.counted(starts, values: [9]).replayLazily(persistingTo: third, stream: "costly")
        #expect(try await Run.collect(afterRestart) == .init(values: [1, 2, 3], ending: .completed))
        #expect(starts.value == 1)
        third.close()
    }

    @Test func aStoredFailureIsReplayedAndTheSourceIsNotStartedAgain() async throws {
        let daemon = try DaemonFixture()
        let starts = Locked(0)
        let first = try await StreamConnection.connect(socketPath: daemon.socket)
        let failing = try await Self.counted(starts, values: [1], failure: "quota exceeded")
            .replay(persistingTo: first, stream: "failing")
        #expect(try await Run.collect(failing) == .init(values: [1], ending: .failed(StreamFailure("quota exceeded"))))
        let second = try await StreamConnection.connect(socketPath: daemon.socket)
        let again = try await Self.counted(starts, values: [2]).replay(persistingTo: second, stream: "failing")
        #expect(try await Run.collect(again) == .init(values: [1], ending: .failed(StreamFailure("quota exceeded"))))
        #expect(starts.value == 1)
        first.close()
        second.close()
    }

    @Test func replayLazilyStartsTheSourceOnlyWithTheFirstStart() async throws {
        let daemon = try DaemonFixture()
        let starts = Locked(0)
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        let lazy = try await Self.counted(starts, values: [4, 5]).replayLazily(persistingTo: connection, stream: "lazy")
        try await Task.sleep(for: .milliseconds(200))
        #expect(starts.value == 0)
        #expect(try await connection.streamInfo("lazy").count == 0)
        #expect(try await Run.collect(lazy) == .init(values: [4, 5], ending: .completed))
        #expect(starts.value == 1)
        connection.close()
    }

    @Test func replayLastKeepsTheLatestValueForTheNextProcess() async throws {
        let daemon = try DaemonFixture()
        let starts = Locked(0)
        let first = try await StreamConnection.connect(socketPath: daemon.socket)
        let latest = try await Self.counted(starts, values: [1, 2, 3]).replayLast(persistingTo: first, stream: "latest")
        #expect(try await Run.collect(latest).ending == Ending.completed)
        #expect(try await first.streamInfo("latest").policy.capacity == .last)
        let second = try await StreamConnection.connect(socketPath: daemon.socket)
        let again = try await Self.counted(starts, values: [9]).replayLast(persistingTo: second, stream: "latest")
        #expect(try await Run.collect(again) == .init(values: [3], ending: .completed))
        #expect(starts.value == 1)
        first.close()
        second.close()
    }

    @Test func aMulticastConnectionPublishesToTheDaemonForOtherConnections() async throws {
        let daemon = try DaemonFixture()
        let starts = Locked(0)
        let first = try await StreamConnection.connect(socketPath: daemon.socket)
        let shared = try await Self.counted(starts, values: [7, 8])
            .multicast(persistingTo: first, stream: "shared", policy: StreamPolicy(capacity: .last(10)))
        #expect(try await first.streamInfo("shared").policy.capacity == .last(10))
        let here = Run.start(shared.producer)
        _ = shared.connect()
        #expect(try await here.finished() == .init(values: [7, 8], ending: .completed))
        let second = try await StreamConnection.connect(socketPath: daemon.socket)
        let there = RemoteReplaySubject<Int>(connection: second, stream: "shared", replay: .all)
        #expect(try await Run.collect(there.producer) == .init(values: [7, 8], ending: .completed))
        #expect(starts.value == 1)
        first.close()
        second.close()
    }

    @Test func aRemoteSubjectCreatesItsStreamWithThePolicyItIsGiven() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        let subject = RemoteReplaySubject<Int>(connection: connection, stream: "made", policy: StreamPolicy(capacity: .last(2)))
        let run = Run.start(subject.producer)
        for value in 1...4 { try await subject.append(value) }
        #expect(await eventually { run.snapshot.values.count == 4 })
        let info = try await connection.streamInfo("made")
        #expect(info.policy == StreamPolicy(capacity: .last(2)) && info.count == 2)
        connection.close()
    }
}

/// One start of a producer of `Int`s, collecting what it delivers.
final class Run: Sendable {
    struct Outcome: Equatable, Sendable {
        var values: [Int]
        var ending: Ending?
    }
    private let state = Mutex(Outcome(values: [], ending: nil))

    var snapshot: Outcome { state.withLock { $0 } }

    static func start(_ producer: SignalProducer<Int, StreamFailure>) -> Run {
        let run = Run()
        _ = producer.start { event in
            run.state.withLock { outcome in
                switch event {
                case let .value(value): outcome.values.append(value)
                case .completed: outcome.ending = .completed
                case let .failed(failure): outcome.ending = .failed(failure)
                case .interrupted: outcome.ending = .interrupted
                }
            }
        }
        return run
    }

    /// Starts `producer` and returns what it delivered once it has ended.
    static func collect(_ producer: SignalProducer<Int, StreamFailure>) async throws -> Outcome {
        try await start(producer).finished()
    }

    /// What was delivered once the producer has ended; throws if it does not end in time.
    func finished() async throws -> Outcome {
        guard await eventually({ self.snapshot.ending != nil }) else {
            throw TestFailure("the producer did not end; it delivered \(snapshot.values)")
        }
        return snapshot
    }
}
