import Foundation
import StreamClient
import StreamProtocol
import StreamdTestSupport
import Testing

/// Each stream's own de-duplication window, through a real daemon: by count and by duration, kept
/// across a SIGKILL, changed by `config`, and left alone by a client of an older protocol.
@Suite struct StreamDeduplicationWindowTests {
    @Test func aStreamsWindowByCountHoldsAcrossASigkill() async throws {
        let daemon = try DaemonFixture()
        let window = DeduplicationWindow(events: 3)
        let before = try await StreamConnection.connect(socketPath: daemon.socket)
        try await before.createStream("payments", policy: StreamPolicy(deduplication: window))
        for index in 1...5 { _ = try await before.append(bytes("p\(index)"), to: "payments", messageID: "p\(index)") }
        before.close()
        #expect(daemon.stop(with: SIGKILL) == SIGKILL)
        try daemon.start()
        let after = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { after.close() }
        #expect(try await after.streamInfo("payments").policy.deduplication == window)
        let inside = try await after.append(bytes("p4"), to: "payments", messageID: "p4")
        #expect(inside.duplicate && inside.sequence == 4, "p4's event is among the last 3: \(inside)")
        let outside = try await after.append(bytes("p1"), to: "payments", messageID: "p1")
        #expect(!outside.duplicate && outside.sequence == 6, "p1's event left the last 3: \(outside)")
    }

    /// A loaded machine may take seconds over a round trip: the retry is expected to be recognised
    /// only when it was sent within the window, and forgotten once it has surely passed.
    @Test func aStreamsWindowByDurationForgetsAnIdOnceItHasPassed() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        try await connection.createStream("short", policy: StreamPolicy(deduplication: DeduplicationWindow(duration: .seconds(3))))
        let sent = ContinuousClock.now
        let first = try await connection.append(bytes("x"), to: "short", messageID: "x")
        let acknowledged = ContinuousClock.now
        let retried = try await connection.append(bytes("x"), to: "short", messageID: "x")
        if ContinuousClock.now - sent < .seconds(3) {
            #expect(retried.duplicate && retried.sequence == first.sequence, "\(retried)")
        }
        try await Task.sleep(until: acknowledged + .milliseconds(3_500))
        let lateSent = ContinuousClock.now
        let late = try await connection.append(bytes("x"), to: "short", messageID: "x")
        #expect(!late.duplicate && late.sequence == retried.sequence + 1, "3.5 s later the id is out of its 3 s window: \(late)")
        let again = try await connection.append(bytes("x"), to: "short", messageID: "x")
        if ContinuousClock.now - lateSent < .seconds(3) {
            #expect(again.duplicate && again.sequence == late.sequence, "stored anew, the id is remembered anew: \(again)")
        }
    }

    /// Publishes without ids move the stream on, so an id's event leaves a window by count with them.
    @Test func publishesWithoutIdsMoveAWindowByCount() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        try await connection.createStream("mixed", policy: StreamPolicy(deduplication: DeduplicationWindow(events: 3)))
        _ = try await connection.append(bytes("a"), to: "mixed", messageID: "a")
        _ = try await connection.append(contentsOf: (1...2).map { bytes("plain \($0)") }, to: "mixed")
        #expect(try await connection.append(bytes("a"), to: "mixed", messageID: "a").duplicate, "a is among the last 3")
        _ = try await connection.append(bytes("plain 3"), to: "mixed")
        let outside = try await connection.append(bytes("a"), to: "mixed", messageID: "a")
        #expect(!outside.duplicate && outside.sequence == 5, "a's event left the last 3: \(outside)")
    }

    @Test func aChangedWindowAppliesToTheNextPublish() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        for index in 1...5 { _ = try await connection.append(bytes("a\(index)"), to: "changing", messageID: "a\(index)") }
        #expect(try await connection.append(bytes("a3"), to: "changing", messageID: "a3").duplicate, "the default window: 10 000 events")
        try await connection.configureStream("changing", policy: StreamPolicy(deduplication: DeduplicationWindow(events: 2)))
        let outside = try await connection.append(bytes("a3"), to: "changing", messageID: "a3")
        #expect(!outside.duplicate && outside.sequence == 6, "\(outside)")
        #expect(try await connection.append(bytes("a3"), to: "changing", messageID: "a3").duplicate, "stored again, it is remembered")
    }

    /// A client that agreed on version 3 knows no window: its `config` changes what it knows and
    /// leaves the stream's window as it was; its `create` of the stream as it is succeeds.
    @Test func aClientOfVersion3LeavesTheWindowAsItIs() async throws {
        let daemon = try DaemonFixture()
        let current = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { current.close() }
        let window = DeduplicationWindow(events: 50, duration: .seconds(600))
        try await current.createStream("kept", policy: StreamPolicy(deduplication: window))
        let old = try SocketClient.connected(to: daemon.socket, maxVersion: 3)
        #expect(old.version == 3)
        #expect(try old.request(.createStream(name: "kept", policy: StreamPolicy())) == .streamInfo(StreamInfo(name: "kept", policy: StreamPolicy())))
        let configured = try old.request(.configureStream(name: "kept", policy: StreamPolicy(capacity: .last(100))))
        guard case let .streamInfo(seen) = configured else { throw TestFailure("config was answered \(configured)") }
        #expect(seen.policy == StreamPolicy(capacity: .last(100)), "in version 3's layout, without the window")
        #expect(try await current.streamInfo("kept").policy == StreamPolicy(capacity: .last(100), deduplication: window))
    }

    /// A version-3 `config` reads the window it keeps and writes it back; one of version 4 racing
    /// with it must still win whichever goes first: both orders end with the version-4 window.
    @Test func aVersion3ConfigRacingAVersion4OneNeverUndoesItsWindow() throws {
        let daemon = try DaemonFixture()
        let old = try SocketClient.connected(to: daemon.socket, maxVersion: 3)
        let current = try SocketClient.connected(to: daemon.socket, maxVersion: 4)
        _ = try current.request(.createStream(name: "raced", policy: StreamPolicy()))
        let clients = [old, current]
        for round in 1...150 {
            let window = DeduplicationWindow(events: UInt64(round))
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                let policy = side == 0 ? StreamPolicy(capacity: .last(round)) : StreamPolicy(deduplication: window)
                _ = try? clients[side].request(.configureStream(name: "raced", policy: policy))
            }
            guard case let .streamInfo(info) = try current.request(.getStreamInfo(name: "raced")) else { throw TestFailure("no info") }
            #expect(info.policy.deduplication == window, "round \(round): \(info.policy)")
            if info.policy.deduplication != window { break }
        }
    }

    @Test func aWindowWithNeitherBoundIsRefusedWithASentence() async throws {
        let daemon = try DaemonFixture()
        let connection = try await StreamConnection.connect(socketPath: daemon.socket)
        defer { connection.close() }
        let refused = await #expect(throws: StreamClientError.self) {
            try await connection.createStream("bad", policy: StreamPolicy(deduplication: DeduplicationWindow()))
        }
        guard case let .server(code, message)? = refused else { throw TestFailure("not a server error: \(String(describing: refused))") }
        #expect(code == .invalidArgument)
        #expect(message.contains("needs a count of events, a duration or both"), "\(message)")
        #expect(try await connection.ping() == ())
    }
}
