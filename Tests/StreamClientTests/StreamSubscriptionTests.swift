import EventLog
import Foundation
import Testing

@testable import StreamClient

/// `values(of:in:)`, `events(of:in:)` and `events(in:)`: typed async reading under credit that follows the loop.
@Suite struct StreamSubscriptionTests {
    static let eventCount = 50_000

    private func publishInts(_ range: ClosedRange<Int>, to stream: String, on connection: StreamConnection) async throws {
        for first in stride(from: range.lowerBound, through: range.upperBound, by: 1000) {
            let batch = (first...min(first + 999, range.upperBound)).map { Array("\($0)".utf8) }
            _ = try await connection.append(contentsOf: batch, to: stream)
        }
    }

    @Test func aSlowLoopNeverHasMoreThanItsCreditBufferedOverFiftyThousandEvents() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        try await publishInts(1...Self.eventCount, to: "big", on: connection)
        let credit: UInt32 = 64
        var iterator = connection.values(of: Int.self, in: "big", from: .all, codec: .json, credit: credit).makeAsyncIterator()
        var expected = 1
        var overBound: [Int] = []
        while let value = try await iterator.next() {
            #expect(value == expected)
            if iterator.buffered > Int(credit) { overBound.append(iterator.buffered) }
            // Slow for the first 400 values: long enough for an eager grant to pull in thousands.
            if expected <= 400 { try await Task.sleep(for: .milliseconds(1)) }
            if expected == Self.eventCount { break }
            expected += 1
        }
        #expect(expected == Self.eventCount)
        #expect(overBound.isEmpty, "more than \(credit) events waited \(overBound.count) times, up to \(overBound.max() ?? 0)")
        #expect(iterator.peakBuffered <= Int(credit))
        #expect(iterator.peakBuffered > 0)
        connection.close()
        await fixture.tearDown()
    }

    @Test func cancellingTheLoopsTaskEndsTheSubscriptionInTheDaemonWithoutThrowing() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        try await publishInts(1...3, to: "s", on: connection)
        // The loop says how many it has had, so the task is cancelled only once it waits past the history.
        let (received, counted) = AsyncStream.makeStream(of: Int.self)
        let task = Task { () async throws(StreamClientError) -> Int in
            defer { counted.finish() }  // so that the wait below ends should the loop end early
            var count = 0
            for try await _ in connection.values(of: Int.self, in: "s", from: .all) {
                count += 1
                counted.yield(count)
            }
            return count
        }
        for await count in received where count == 3 { break }
        #expect(try await waitForSubscribers(1, of: "s", on: connection))
        task.cancel()
        let count = try await task.value
        #expect(count == 3)
        #expect(try await waitForSubscribers(0, of: "s", on: connection))
        connection.close()
        await fixture.tearDown()
    }

    @Test func breakingOutOfTheLoopEndsTheSubscriptionInTheDaemon() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        try await publishInts(1...3, to: "s", on: connection)
        var first: ReceivedValue<Int>?
        for try await event in connection.events(of: Int.self, in: "s", from: .all) {
            #expect(try await connection.streamInfo("s").subscribers == 1)
            first = event
            break
        }
        #expect(first?.sequence == 1 && first?.value == 1)
        #expect(try await waitForSubscribers(0, of: "s", on: connection))
        connection.close()
        await fixture.tearDown()
    }

    @Test func aStoredFailureEndsTheLoopThrowingStreamFailed() async throws {
        let fixture = try await ServerFixture { log in
            _ = try log.createStream("bad")
            _ = try log.append(Array("\"a\"".utf8), to: "bad")
            _ = try log.appendFailed(to: "bad", message: "sensor broke")
        }
        let connection = try await fixture.connect()
        var values: [String] = []
        var thrown: StreamClientError?
        do {
            for try await value in connection.values(of: String.self, in: "bad", from: .all) { values.append(value) }
        } catch {
            thrown = error  // typed: a StreamClientError without a cast
        }
        #expect(values == ["a"])
        #expect(thrown == .streamFailed("sensor broke"))
        connection.close()
        await fixture.tearDown()
    }

    @Test func aValueThatDoesNotDecodeThrowsCodecNamingTheSequenceAndTypeAndUnsubscribes() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(contentsOf: [Array("1".utf8), Array("not json".utf8), Array("3".utf8)], to: "s")
        var values: [Int] = []
        var thrown: StreamClientError?
        do {
            for try await value in connection.values(of: Int.self, in: "s", from: .all) { values.append(value) }
        } catch {
            thrown = error
        }
        #expect(values == [1])
        guard case let .codec(message) = thrown else {
            Issue.record("expected a codec error, got \(String(describing: thrown))")
            return
        }
        #expect(message.contains("event 2 of s") && message.contains("Int"), "\(message)")
        #expect(try await waitForSubscribers(0, of: "s", on: connection))
        connection.close()
        await fixture.tearDown()
    }

    @Test func historyThenLiveArriveWithNoGapAndNoDuplicate() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let publisher = try await fixture.connect()
        try await publishInts(1...500, to: "s", on: publisher)
        var received: [ReceivedValue<Int>] = []
        var live: Task<Void, any Error>?
        for try await event in connection.events(of: Int.self, in: "s", from: .all, credit: 16) {
            received.append(event)
            if received.count == 100 {
                live = Task { for value in 501...1000 { _ = try await publisher.append(Array("\(value)".utf8), to: "s") } }
            }
            if received.count == 1000 { break }
        }
        try await live?.value
        #expect(received.map(\.sequence) == Array(1...1000))
        #expect(received.map(\.value) == Array(1...1000))
        #expect(received.allSatisfy { $0.timestamp > 0 })
        connection.close()
        publisher.close()
        await fixture.tearDown()
    }

    @Test func theBytesFormResumesAfterARestartWithItsBufferBounded() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        try await publishInts(1...300, to: "r", on: connection)
        connection.close()
        let subscriber = try await fixture.connect()
        var iterator = subscriber.events(in: "r", from: .all, resume: true, credit: 32).makeAsyncIterator()
        var sequences: [UInt64] = []
        while sequences.count < 100, let event = try await iterator.next() { sequences.append(event.sequence) }
        await fixture.stop()
        try await fixture.restart()
        while sequences.count < 300, let event = try await iterator.next() { sequences.append(event.sequence) }
        #expect(sequences == Array(1...300))
        #expect(iterator.peakBuffered <= 32)
        subscriber.close()
        await fixture.tearDown()
    }
}
