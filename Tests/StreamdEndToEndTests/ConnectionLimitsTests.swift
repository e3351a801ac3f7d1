import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// Connections that hold the daemon: silent ones, idle ones, half-sent frames and too many of them
/// (issue 14, defect 5). Each limit is set low by its flag so the test takes seconds.
@Suite struct ConnectionLimitsTests {
    @Test func aConnectionThatNeverSaysHelloIsClosedAfterTheHandshakeTimeout() throws {
        let daemon = try DaemonFixture(extra: ["--handshake-timeout", "1"])
        let started = ContinuousClock.now
        let client = try SocketClient(path: daemon.socket, timeout: 15)
        let frames = try client.framesUntilClosedOrReset()
        #expect(ContinuousClock.now - started < .seconds(10))
        guard case let .error(code, message)? = frames.first?.message else {
            Issue.record("no ERROR before the close: \(frames)")
            return
        }
        #expect(code == .limitExceeded)
        #expect(message.contains("no HELLO arrived within 1 s"))
        #expect(daemon.logs("refused a connection"))
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeoutWhileASubscribedOneStays() throws {
        // 3 s: a loaded machine's pause between the subscriber's first requests must not close it first.
        let daemon = try DaemonFixture(extra: ["--idle-timeout", "3"])
        let idle = try SocketClient.connected(to: daemon.socket)
        let subscriber = try SocketClient.connected(to: daemon.socket)
        try subscriber.publish([1], to: "s")
        let reply = try subscriber.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .all, credit: 100)))
        guard case .subscribed = reply else { throw TestFailure("no SUBSCRIBED: \(reply)") }
        _ = try subscriber.events(of: 1, count: 1)
        let subscribed = Date()
        let frames = try idle.framesUntilClosedOrReset()
        guard case let .error(code, message)? = frames.first?.message else {
            Issue.record("the idle connection got no ERROR: \(frames)")
            return
        }
        #expect(code == .limitExceeded && message.contains("sent nothing and had nothing in progress for 3 s"))
        // Half as long again as the idle timeout since the subscriber last sent anything.
        Thread.sleep(until: subscribed.addingTimeInterval(4.5))
        guard case .pong(nonce: 7) = try subscriber.request(.ping(nonce: 7)) else {
            throw TestFailure("the subscribed connection no longer answers")
        }
    }

    @Test func aFrameThatStopsHalfwayIsClosedAfterTheFrameTimeout() throws {
        let daemon = try DaemonFixture(extra: ["--frame-timeout", "1"])
        let client = try SocketClient.connected(to: daemon.socket)
        // The length field announces 100 000 bytes; 1000 come.
        try client.write([0x00, 0x01, 0x86, 0xA0, 0x10, 0x00, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 1000))
        let frames = try client.framesUntilClosedOrReset()
        guard case let .error(code, message)? = frames.first?.message else {
            Issue.record("no ERROR before the close: \(frames)")
            return
        }
        #expect(code == .limitExceeded && message.contains("did not arrive whole within 1 s"))
    }

    @Test func theConnectionBeyondTheTotalLimitIsRefusedWithASentenceAndServedOnceOneCloses() throws {
        let daemon = try DaemonFixture(extra: ["--max-connections", "3"])
        var clients = try (0..<3).map { _ in try SocketClient.connected(to: daemon.socket) }
        let (_, greeting) = try SocketClient.greet(daemon.socket)
        guard case let .refused(code, message) = greeting else {
            Issue.record("the fourth connection was not refused: \(greeting)")
            return
        }
        #expect(code == .limitExceeded)
        #expect(message == "the server already serves 3 connections, its maximum; the connection is refused. Close connections you do not need, or retry later.")
        #expect(daemon.logs("uid=\(getuid())"))
        clients.removeFirst()
        #expect(pollUntil { (try? SocketClient.greet(daemon.socket).1) == .welcomed })
    }

    @Test func theConnectionBeyondTheLimitPerUserIsRefusedNamingTheUser() throws {
        let daemon = try DaemonFixture(extra: ["--max-connections-per-user", "2"])
        let clients = try (0..<2).map { _ in try SocketClient.connected(to: daemon.socket) }
        let (_, greeting) = try SocketClient.greet(daemon.socket)
        guard case let .refused(code, message) = greeting else {
            Issue.record("the third connection of one user was not refused: \(greeting)")
            return
        }
        #expect(code == .limitExceeded)
        #expect(message.hasPrefix("user \(getuid()) already holds 2 connections to this server, the most one user may;"))
        #expect(clients.count == 2)
    }

    @Test func aStormOfRefusalsIsLoggedAtABoundedRate() throws {
        let daemon = try DaemonFixture(extra: ["--max-connections", "1"])
        let held = try SocketClient.connected(to: daemon.socket)
        let started = ContinuousClock.now
        var refused = 0
        for _ in 0..<300 {
            if case .refused = try SocketClient.greet(daemon.socket).1 { refused += 1 }
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 2
        #expect(refused == 300)
        // The next refusal logged, a second later, says how many were left out.
        Thread.sleep(forTimeInterval: 1.1)
        _ = try SocketClient.greet(daemon.socket)
        #expect(daemon.logs("refusals-not-logged"))
        let lines = daemon.daemon?.standardError.components(separatedBy: "refused a connection").count ?? 0
        #expect(lines - 1 <= 20 * seconds, "\(lines - 1) refusal lines in about \(seconds) s")
        _ = held
    }

    @Test func theLimitFlagsShowInHelpAndTheirVariablesWork() throws {
        let help = try ToolProcess.run(path: DaemonProcess.executable, ["--help"])
        for flag in ["--max-connections", "--max-connections-per-user", "--handshake-timeout", "--idle-timeout",
            "--frame-timeout", "--max-partial-frame-bytes", "--max-message-id-bytes"]
        {
            #expect(help.standardOutput.contains(flag))
        }
        let directory = try ShortTemporaryDirectory()
        let fromVariable = try DaemonProcess.serving(directory, environment: ["STREAMD_MAX_CONNECTIONS": "1"])
        let first = try SocketClient.connected(to: directory.socket)
        #expect(try SocketClient.greet(directory.socket).1 != .welcomed)
        _ = (first, fromVariable)
        let bad = try ToolProcess.run(path: DaemonProcess.executable, ["--socket", directory.path + "/b.sock", "--db", directory.path + "/b.sqlite", "--idle-timeout", "soon"])
        #expect(bad.status == 64 && bad.standardError.contains("--idle-timeout must be a number of seconds"))
    }
}

extension SocketClient {
    /// Every frame until the daemon closes the connection, a reset counting as a close.
    func framesUntilClosedOrReset() throws -> [Received] {
        var frames: [Received] = []
        do {
            while let frame = try next() { frames.append(frame) }
        } catch let failure as TestFailure where failure.description.contains("reset") {}
        return frames
    }
}
