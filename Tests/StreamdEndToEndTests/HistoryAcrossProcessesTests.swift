import Foundation
import StreamClient
import StreamdTestSupport
import Testing

/// Events published by one process are read by another, and again after the daemon restarts.
@Suite struct HistoryAcrossProcessesTests {
    @Test func aLateSubscriberInAnotherProcessGetsTheWholeHistoryBeforeAndAfterARestart() async throws {
        let daemon = try DaemonFixture()
        let count = 60
        let acks = try ChildProcess.run("stream-child", ["publish", daemon.socket, "orders", "\(count)"])
        #expect(acks.count == count)
        let published = acks.map { $0.split(separator: " ") }
        #expect(published.map { UInt64($0[0]) } == (1...UInt64(count)).map { $0 })
        let timestamps = published.compactMap { Int64($0[1]) }
        #expect(timestamps.count == count && timestamps.first.map { $0 > 0 } == true)
        #expect(timestamps == timestamps.sorted())
        // What a subscriber must print: sequence, timestamp and payload of every publish, in order.
        let expected = zip(acks, 1...count).map { "\($0) \"orders-\($1)\"" }

        let late = try ChildProcess.run("stream-child", ["subscribe", daemon.socket, "orders", "1", "\(count)"])
        #expect(late == expected)

        #expect(daemon.stop(with: SIGTERM) == 0)
        try daemon.start()
        let afterRestart = try ChildProcess.run("stream-child", ["subscribe", daemon.socket, "orders", "1", "\(count)"])
        #expect(afterRestart == expected)

        // The history goes on from where it was: the next publish is sequence count + 1.
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        #expect(try await connection.append(bytes("next"), to: "orders").sequence == UInt64(count + 1))
        let middle = try ChildProcess.run("stream-child", ["subscribe", daemon.socket, "orders", "\(count - 1)", "3"])
        #expect(middle.map { $0.split(separator: " ")[0] } == ["\(count - 1)", "\(count)", "\(count + 1)"])
        connection.close()
    }

    @Test func aSubscriberInAnotherProcessReceivesLiveEventsPublishedAfterItStarted() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        try await connection.createStream("live")
        let child = try ChildProcess("stream-child", ["subscribe", daemon.socket, "live", "1", "20"])
        #expect(try await eventually { try await connection.streamInfo("live").subscribers == 1 })
        var sent: [AppendReceipt] = []
        for index in 1...20 { sent.append(try await connection.append(bytes("\"live-\(index)\""), to: "live")) }
        #expect(try child.waitForExit() == 0)
        #expect(child.outputLines == zip(sent, 1...20).map { "\($0.sequence) \($0.timestamp) \"live-\($1)\"" })
        connection.close()
    }
}
