import Dispatch
import Foundation
import Reactive
import StreamClient
import StreamdTestSupport
import Synchronization
import Testing

/// `RemoteReplaySubject.append` returns after the subject's observers have the value, and a start
/// after it replays it before returning, against a real daemon, with no waiting in the test.
@Suite struct RemoteReadYourWritesTests {
    /// Collects values from any thread.
    final class Seen: Sendable {
        private let values = Mutex<[Double]>([])
        var all: [Double] { values.withLock { $0 } }
        func append(_ value: Double) { values.withLock { $0.append(value) } }
    }

    @Test func everyObserverHasTheValueWhenAppendReturns() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        let prices = RemoteReplaySubject<Double>(connection: connection, stream: "prices")
        let first = Seen()
        let second = Seen()
        prices.observeValues { first.append($0) }
        prices.producer.map { $0 * 2 }.startWithValues { second.append($0) }
        var late: [Int] = []
        for value in 1...100 {
            try await prices.append(Double(value))
            if first.all.last != Double(value) || second.all.last != Double(value * 2) { late.append(value) }
        }
        #expect(late.isEmpty, "values not yet mirrored when append returned: \(late.prefix(10))")
        #expect(first.all == (1...100).map(Double.init))
    }

    @Test func aStartAfterAppendReplaysTheValueBeforeReturning() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        var missed: [Int] = []
        for round in 0..<30 {
            let prices = RemoteReplaySubject<Double>(connection: connection, stream: "prices-\(round)")
            try await prices.append(101.5)
            let seen = Seen()
            prices.producer.map { $0 * 2 }.startWithValues { seen.append($0) }
            if seen.all != [203.0] { missed.append(round) }
            try await prices.append(102)
            if seen.all != [203.0, 204.0] { missed.append(round) }
        }
        #expect(missed.isEmpty, "rounds whose start or append did not deliver at once: \(missed.prefix(10))")
    }

    @Test func theFirstReadWaitsForEverythingStoredBeforeIt() async throws {
        let daemon = try DaemonFixture()
        let writer = try await StreamConnection.connect(socketPath: daemon.socket)
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { writer.close(); reader.close() }
        for value in 1...50 { _ = try await writer.append(value: Double(value), to: "prices") }
        let prices = RemoteReplaySubject<Double>(connection: reader, stream: "prices")
        let seen = Seen()
        prices.observeValues { seen.append($0) }
        #expect(seen.all == (1...50).map(Double.init))
    }

    @Test func readsRacingTheFirstOneAlsoWaitForTheHistory() async throws {
        let daemon = try DaemonFixture()
        let writer = try await StreamConnection.connect(socketPath: daemon.socket)
        let reader = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { writer.close(); reader.close() }
        _ = try await writer.append(contentsOf: (1...50).map { try JSONEventCodec().encode(Double($0)) }, to: "prices")
        for round in 0..<10 {
            let prices = RemoteReplaySubject<Double>(connection: reader, stream: "prices")
            let short = Mutex<[Int]>([])
            let oneAtATime = NSLock()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                // The reads race; the observations do not, since an observer attached while another
                // thread holds the subject's gate is attached (and replayed to) by that thread, just after.
                let signal = prices.signal
                oneAtATime.withLock {
                    let seen = Seen()
                    signal.observeValues { seen.append($0) }
                    if seen.all.count != 50 { short.withLock { $0.append(round) } }
                }
            }
            #expect(short.withLock { $0 }.isEmpty, "round \(round): a read returned before the history")
        }
    }

    @Test func theFirstReadOfAnEmptyOrNewStreamReturns() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        let fresh = RemoteReplaySubject<Double>(connection: connection, stream: "fresh")
        let newOnly = RemoteReplaySubject<Double>(connection: connection, stream: "fresh", replay: .newOnly)
        let (seenFresh, seenNew) = (Seen(), Seen())
        fresh.observeValues { seenFresh.append($0) }
        newOnly.observeValues { seenNew.append($0) }
        #expect(seenFresh.all.isEmpty && seenNew.all.isEmpty)
        try await fresh.append(1)
        try await newOnly.append(2)
        // The subject that appended has read its write; the other gets it live, soon after.
        #expect(seenNew.all.filter { $0 == 2 }.count == 1)
        #expect(await eventually { seenFresh.all.filter { $0 == 2 }.count == 1 })
    }

    @Test func aFirstReadOnTheEventLoopDoesNotWait() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        _ = try await connection.append(value: 7.0, to: "other")
        let prices = RemoteReplaySubject<Double>(connection: connection, stream: "prices")
        let other = RemoteReplaySubject<Double>(connection: connection, stream: "other")
        let seen = Seen()
        let returned = DispatchSemaphore(value: 0)
        // Observer callbacks run on the connection's event loop, which delivers `other`'s history: the
        // first read of `other` from there must not wait for it.
        prices.observeValues { _ in
            other.observeValues { seen.append($0) }
            returned.signal()
        }
        try await prices.append(1)
        #expect(returned.wait(timeout: .now() + 10) == .success)
        await eventually { !seen.all.isEmpty }
        #expect(seen.all == [7.0])
    }

    @Test func anAppendFromInsideAnObserverDoesNotDeadlock() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        let prices = RemoteReplaySubject<Double>(connection: connection, stream: "prices")
        let seen = Seen()
        let innerReturned = Locked(false)
        prices.observeValues { value in
            seen.append(value)
            guard value == 1 else { return }
            // An observer cannot await; a task it starts appends, and its append waits without blocking
            // the event loop that mirrors the value.
            Task {
                _ = try? await prices.append(2)
                #expect(seen.all == [1, 2])
                innerReturned.withLock { $0 = true }
            }
        }
        try await prices.append(1)
        // Awaited, not blocked on: the inner task needs a thread of the concurrency pool to run.
        #expect(await eventually { innerReturned.withLock { $0 } })
    }
}
