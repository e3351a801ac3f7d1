import Foundation
import StreamProtocol
import Testing

@testable import StreamClient

@Suite struct StreamConnectionTests {
    @Test func connectingCompletesTheHandshakeAndPingsRoundTrip() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        #expect(connection.protocolVersion == 4)
        #expect(connection.maximumFrameLength > 0)
        try await connection.ping()
        connection.close()
        await fixture.tearDown()
    }

    @Test func connectingWithNoDaemonNamesTheSocketAndHowToStartIt() async throws {
        let path = "/tmp/sc-none-\(UUID().uuidString.prefix(8)).sock"
        do {
            _ = try await StreamConnection.connect(socketPath: path)
            Issue.record("connected to a socket nobody listens on")
        } catch let error as StreamClientError {
            guard case .daemonNotRunning(let tried, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(tried == path)
            #expect(error.description.contains(path))
            #expect(error.description.contains("swift run streamd"))
        }
    }

    @Test func publishIsAcknowledgedWithIncreasingSequencesAndTimestamps() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let first = try await connection.append(bytes("a"), to: "orders")
        let second = try await connection.append(bytes("b"), to: "orders")
        #expect(first.sequence == 1)
        #expect(second.sequence == 2)
        #expect(second.timestamp >= first.timestamp && first.timestamp > 0)
        #expect(!second.duplicate)
        let batch = try await connection.append(contentsOf: [bytes("c"), bytes("d")], to: "orders")
        #expect(batch.map(\.sequence) == [3, 4])
        connection.close()
        await fixture.tearDown()
    }

    @Test func concurrentCallsOnOneConnectionEachGetTheirOwnReply() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let sequences = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for index in 0..<200 {
                group.addTask { try await connection.append(bytes("\(index)"), to: "s").sequence }
            }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(sequences.sorted() == Array(1...200))
        connection.close()
        await fixture.tearDown()
    }

    @Test func aRepeatedMessageIDIsAcknowledgedAsADuplicateOfTheOriginal() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let original = try await connection.append(bytes("x"), to: "s", messageID: "m-1")
        let again = try await connection.append(bytes("x"), to: "s", messageID: "m-1")
        #expect(again.duplicate)
        #expect(again.sequence == original.sequence)
        connection.close()
        await fixture.tearDown()
    }

    @Test func aWrongExpectedLastSequenceIsAServerErrorWithItsCode() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        _ = try await connection.append(bytes("a"), to: "s", expectedLastSequence: 0)
        do {
            _ = try await connection.append(bytes("b"), to: "s", expectedLastSequence: 0)
            Issue.record("a conflicting publish succeeded")
        } catch let StreamClientError.server(code, message) {
            #expect(code == .wrongLastSequence)
            #expect(!message.isEmpty)
        }
        // The connection goes on after a request's error.
        #expect(try await connection.append(bytes("b"), to: "s", expectedLastSequence: 1).sequence == 2)
        connection.close()
        await fixture.tearDown()
    }

    @Test func callsOnAClosedConnectionThrowConnectionClosed() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        connection.close()
        await #expect(throws: StreamClientError.self) { try await connection.ping() }
        #expect(connection.isClosed)
        await fixture.tearDown()
    }

    @Test func adminCallsCreateConfigureDescribeListTruncateAndDeleteStreams() async throws {
        let fixture = try await ServerFixture()
        let connection = try await fixture.connect()
        let created = try await connection.createStream("metrics", policy: StreamPolicy(capacity: 100))
        #expect(created.name == "metrics" && created.policy.capacity == 100)
        let configured = try await connection.configureStream("metrics", policy: StreamPolicy(capacity: 50))
        #expect(configured.policy.capacity == 50)
        _ = try await connection.append(contentsOf: (1...10).map { bytes("\($0)") }, to: "metrics")
        let info = try await connection.streamInfo("metrics")
        #expect(info.count == 10 && info.lastSequence == 10)
        #expect(try await connection.listStreams().map(\.name) == ["metrics"])
        let dry = try await connection.truncate("metrics", .keepLast(4), dryRun: true)
        #expect(dry.removed == 6)
        #expect(try await connection.streamInfo("metrics").count == 10)
        let done = try await connection.truncate("metrics", .keepLast(4))
        #expect(done.removed == 6 && done.firstSequence == 7)
        try await connection.deleteStream("metrics")
        do {
            _ = try await connection.streamInfo("metrics")
            Issue.record("a deleted stream was found")
        } catch let StreamClientError.server(code, _) {
            #expect(code == .streamNotFound)
        }
        connection.close()
        await fixture.tearDown()
    }
}
