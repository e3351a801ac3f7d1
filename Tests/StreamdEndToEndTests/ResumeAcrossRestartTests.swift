import EventLog
import Foundation
import Reactive
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// Subscriptions and subjects over a daemon that stops and starts again.
@Suite struct ResumeAcrossRestartTests {
    @Test(arguments: [SIGTERM, SIGKILL])
    func aResumingConsumerPausedMidHistoryContinuesAcrossStopsWithNoGapAndNoDuplicate(signal: Int32) async throws {
        let daemon = try DaemonFixture()
        let publisher = try await StreamConnection.connect(socketPath: daemon.socket)
        for chunk in 0..<10 {
            _ = try await publisher.append(contentsOf: (0..<300).map { bytes("e\(chunk * 300 + $0 + 1)") }, to: "r")
        }
        publisher.close()
        let subscriber = try await StreamConnection.connect(socketPath: daemon.socket)
        let seen = Locked<[StoredEvent]>([])
        // The consumer takes 50 events and waits for the test: the stop then lands mid-history however
        // loaded the machine is, and flow control keeps the daemon from sending far ahead meanwhile.
        let (gate, opening) = AsyncStream<Void>.makeStream()
        let reading = Task {
            var waitForGate = gate.makeAsyncIterator()
            for try await event in subscriber.events(in: "r", from: .all, resume: true) {
                let count = seen.withLock { seen in
                    seen.append(event)
                    return seen.count
                }
                if count == 50 { await waitForGate.next() }
                if count == 3200 { return }
            }
        }
        #expect(await eventually { seen.value.count == 50 })
        #expect(daemon.stop(with: signal) == (signal == SIGTERM ? 0 : signal))
        try daemon.start()
        let again = try await StreamConnection.connect(socketPath: daemon.socket)
        _ = try await again.append(contentsOf: (3001...3100).map { bytes("e\($0)") }, to: "r")
        opening.yield()

        // And once more, while it is live, with the other way of stopping.
        #expect(await eventually { seen.value.count == 3100 })
        daemon.stop(with: signal == SIGTERM ? SIGKILL : SIGTERM)
        try daemon.start()
        let third = try await StreamConnection.connect(socketPath: daemon.socket)
        _ = try await third.append(contentsOf: (3101...3200).map { bytes("e\($0)") }, to: "r")
        try await reading.value

        let events = seen.value
        try requireContiguous(events.map(\.sequence), 1...3200, "the resuming consumer")
        #expect(events.map { text($0.payload) } == (1...3200).map { "e\($0)" })
        for connection in [subscriber, again, third] { connection.close() }
    }

    @Test func theAsyncSequenceAndTypedSubscriptionsWithResumeCarryOnAcrossASigkill() async throws {
        let daemon = try DaemonFixture()
        let publisher = try await StreamConnection.connect(socketPath: daemon.socket)
        for value in 1...50 { _ = try await publisher.append(value: value, to: "n") }
        let subscriber = try await StreamConnection.connect(socketPath: daemon.socket)
        let seen = Locked<[UInt64]>([])
        let reading = Task {
            for try await event in subscriber.events(in: "n", from: .all, resume: true) {
                let count = seen.withLock { seen in
                    seen.append(event.sequence)
                    return seen.count
                }
                if count == 100 { return }
            }
        }
        let typed = Locked<[Int]>([])
        let typedSubscription = subscriber.subscribe("n", as: Int.self, from: .from(sequence: 11), resume: true).start { event in
            if let value = event.value { typed.withLock { $0.append(value) } }
        }
        #expect(await eventually { seen.withLock { $0.count } == 50 && typed.withLock { $0.count } == 40 })
        #expect(daemon.stop(with: SIGKILL) == SIGKILL)
        try daemon.start()
        let again = try await StreamConnection.connect(socketPath: daemon.socket)
        for value in 51...100 { _ = try await again.append(value: value, to: "n") }
        try await reading.value
        #expect(await eventually { typed.withLock { $0.count } == 90 })
        #expect(seen.withLock { $0 } == (1...100).map { $0 })
        #expect(typed.withLock { $0 } == Array(11...100))
        typedSubscription.dispose()
        for connection in [publisher, subscriber, again] { connection.close() }
    }

    @Test func aRemoteReplaySubjectGivesALateObserverTheHistoryFromAnotherProcessThenLiveValues() async throws {
        let daemon = try DaemonFixture()
        _ = try ChildProcess.run("stream-child", ["publish", daemon.socket, "temps", "5"])
        let subject = RemoteReplaySubject<String>(connection: try await StreamConnection.connect(socketPath: daemon.socket), stream: "temps")
        let late = Locked<[String]>([])
        let observation = subject.observe { event in if let value = event.value { late.withLock { $0.append(value) } } }
        #expect(await eventually { late.withLock { $0.count } == 5 })
        // Live values from this process and from another one.
        subject.send(value: "here")
        #expect(await eventually { late.withLock { $0.count } == 6 })
        let acks = try ChildProcess.run("stream-child", ["publish", daemon.socket, "temps", "2"])
        #expect(acks.map { $0.split(separator: " ")[0] } == ["7", "8"])
        #expect(await eventually { late.withLock { $0.count } == 8 })
        #expect(late.withLock { $0 } == ["temps-1", "temps-2", "temps-3", "temps-4", "temps-5", "here", "temps-1", "temps-2"])

        // After a restart, a fresh subject over the same stream replays all of it.
        subject.connection.close()
        observation.dispose()
        try daemon.restart(after: SIGTERM)
        let again = RemoteReplaySubject<String>(connection: try await StreamConnection.connect(socketPath: daemon.socket), stream: "temps")
        let replayed = Locked<[String]>([])
        let second = again.observe { event in if let value = event.value { replayed.withLock { $0.append(value) } } }
        #expect(await eventually { replayed.withLock { $0.count } == 8 })
        #expect(replayed.withLock { $0 } == late.withLock { $0 })
        second.dispose()
        again.connection.close()
    }
}
