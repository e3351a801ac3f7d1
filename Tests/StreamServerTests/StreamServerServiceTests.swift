import EventLog
import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite("StreamServer service")
struct StreamServerServiceTests {
    @Test func aClientPublishesAndSubscribesOverTheSocket() async throws {
        try await withServer { _, directory in
            let publisher = try SocketClient.connected(to: directory.socket)
            for index in 0..<3 { try publisher.publish(payload(index), to: "orders") }

            let subscriber = try SocketClient.connected(to: directory.socket)
            let reply = try subscriber.request(.subscribe(.init(subscriptionID: 7, stream: "orders", start: .all, credit: 100)))
            guard case .subscribed(7, _) = reply else { throw TestFailure("not subscribed: \(reply)") }
            try publisher.publish(payload(3), to: "orders")
            let events = try subscriber.events(of: 7, count: 4)
            #expect(events.map(\.payload) == (0..<4).map(payload))
            #expect(events.map(\.sequence) == [1, 2, 3, 4])
        }
    }

    @Test func pipelinedPublishesAreEachAcknowledgedInOrder() async throws {
        try await withServer { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            var bytes: [UInt8] = []
            for index in 0..<200 {
                bytes += try ClientMessage.publish(.init(stream: "s", payload: payload(index))).encoded(requestID: UInt32(100 + index))
            }
            try client.write(bytes)
            var sequences: [UInt32: UInt64] = [:]
            while sequences.count < 200 {
                guard let frame = try client.next() else { throw TestFailure("closed early") }
                if case let .published(sequence, _, _) = frame.message { sequences[frame.requestID] = sequence }
            }
            let inRequestOrder: [UInt64] = (0..<200).map { sequences[UInt32(100 + $0)] ?? 0 }
            let expected: [UInt64] = Array(1...200)
            #expect(inRequestOrder == expected)
        }
    }

    @Test func gracefulShutdownEndsSubscriptionsThenSaysShuttingDownAndRemovesTheSocket() async throws {
        let directory = try ShortTemporaryDirectory()
        var subscriber: SocketClient?
        try await withServer(in: directory) { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            try client.publish([1], to: "s")
            let reply = try client.request(.subscribe(.init(subscriptionID: 1, stream: "s", start: .newOnly, credit: 10)))
            guard case .subscribed = reply else { throw TestFailure("not subscribed: \(reply)") }
            subscriber = client
        }
        let frames = try #require(subscriber).framesUntilClosed()
        #expect(frames.map(\.message) == [
            .subscriptionEnded(subscriptionID: 1, reason: .serverShuttingDown, message: "the server is shutting down."),
            .error(code: .shuttingDown, message: "the server is shutting down; reconnect later."),
        ])
        #expect(!FileManager.default.fileExists(atPath: directory.socket))
    }

    @Test func everyAcknowledgedPublishIsInTheLogAfterShutdown() async throws {
        let directory = try ShortTemporaryDirectory()
        try await withServer(in: directory) { _, directory in
            let client = try SocketClient.connected(to: directory.socket)
            for index in 0..<20 { try client.publish(payload(index), to: "kept") }
        }
        let log = try EventLog(path: directory.database)
        defer { log.close() }
        var payloads: [[UInt8]] = []
        try log.read("kept", from: .all) { event in
            payloads.append([UInt8](event.payload))
            return true
        }
        #expect(payloads == (0..<20).map(payload))
    }

    @Test func shutdownDuringPipelinedPublishesAnswersWhatItTookThenSaysShuttingDown() async throws {
        let directory = try ShortTemporaryDirectory()
        var acknowledged: [UInt64: [UInt8]] = [:]
        let client = try SocketClient()
        var reader: BackgroundReader?
        // A read limit and a close timeout of the suite's patience: in a full parallel run the drain
        // runs on the concurrency pool, which synchronous tests may hold for minutes (a minute's limit
        // once ran out between two frames).
        try await withServer(in: directory, configure: { $0.closeTimeout = patience }) { _, directory in
            try client.connect(to: directory.socket, timeout: Int(patience.components.seconds))
            _ = try client.request(.hello(minVersion: 1, maxVersion: 1, clientName: "drain"))
            var bytes: [UInt8] = []
            for index in 0..<2000 {
                bytes += try ClientMessage.publish(.init(stream: "drain", payload: payload(index))).encoded(requestID: UInt32(10 + index))
            }
            try client.write(bytes)
            // Shut down as soon as the first acknowledgement shows publishes are in flight.
            guard let first = try client.next(), case let .published(sequence, _, _) = first.message else {
                throw TestFailure("no first acknowledgement")
            }
            acknowledged[sequence] = payload(Int(first.requestID) - 10)
            // The client keeps reading while the server drains, as a live client would.
            reader = BackgroundReader(client)
        }
        let frames = try #require(reader).frames()
        for frame in frames {
            if case let .published(sequence, _, _) = frame.message { acknowledged[sequence] = payload(Int(frame.requestID) - 10) }
        }
        #expect(frames.last?.message.errorCode == .shuttingDown)
        let log = try EventLog(path: directory.database)
        defer { log.close() }
        var stored: [UInt64: [UInt8]] = [:]
        try log.read("drain", from: .all) { event in
            stored[event.sequence] = [UInt8](event.payload)
            return true
        }
        #expect(acknowledged.allSatisfy { stored[$0.key] == $0.value })
        #expect(acknowledged.count == stored.count, "every stored publish was acknowledged before the close")
    }

    @Test func theSocketFileIsOnlyForItsOwnerByDefault() async throws {
        try await withServer { _, directory in
            let mode = try permissions(of: directory.socket)
            #expect(mode == 0o600)
        }
    }

    @Test func theSocketModeCanBeWidened() async throws {
        try await withServer(configure: { $0.socketMode = 0o660 }) { _, directory in
            let mode = try permissions(of: directory.socket)
            #expect(mode == 0o660)
        }
    }

    @Test func aSecondServerOnALiveSocketRefusesToStartAndNamesTheSocket() async throws {
        try await withServer { _, directory in
            let other = try ShortTemporaryDirectory()
            let second = StreamServer(configuration: StreamServerConfiguration(socketPath: directory.socket, databasePath: other.database))
            let error = try await #require(throws: StreamServerError.self) { try await second.run() }
            #expect(error.kind == .socketInUse)
            #expect(error.description.contains(directory.socket))
            #expect(error.description.contains("process \(getpid())"))
            // The refusal left the running server alone.
            _ = try SocketClient.connected(to: directory.socket)
        }
    }

    @Test func aSecondServerOnADatabaseInUseRefusesToStart() async throws {
        try await withServer { _, directory in
            let other = try ShortTemporaryDirectory()
            let second = StreamServer(configuration: StreamServerConfiguration(socketPath: other.socket, databasePath: directory.database))
            let error = try await #require(throws: StreamServerError.self) { try await second.run() }
            #expect(error.kind == .databaseInUse)
            #expect(error.description.contains(directory.database))
            #expect(!FileManager.default.fileExists(atPath: other.socket))
        }
    }

    @Test func aStaleSocketFileIsReplaced() async throws {
        let directory = try ShortTemporaryDirectory()
        try makeStaleSocket(at: directory.socket)
        #expect(SocketFile.state(of: directory.socket) == .stale)
        try await withServer(in: directory) { _, directory in
            _ = try SocketClient.connected(to: directory.socket)
        }
    }

    @Test func aFileThatIsNotASocketIsLeftAloneAndRefused() async throws {
        let directory = try ShortTemporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory.socket, contents: Data("keep me".utf8))
        let server = StreamServer(configuration: StreamServerConfiguration(socketPath: directory.socket, databasePath: directory.database))
        let error = try await #require(throws: StreamServerError.self) { try await server.run() }
        #expect(error.kind == .socketPathOccupied)
        #expect(FileManager.default.contents(atPath: directory.socket) == Data("keep me".utf8))
    }

    @Test func aBadFrameIsAnsweredWithAnErrorAndTheConnectionIsClosed() async throws {
        try await withServer { server, directory in
            let bad = try SocketClient(path: directory.socket)
            try bad.write([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
            let frames = try bad.framesUntilClosed()
            #expect(frames.count == 1)
            #expect(frames.first?.message.errorCode != nil)
            // The server keeps serving others.
            let good = try SocketClient.connected(to: directory.socket)
            #expect(try good.publish([1], to: "s") == 1)
        }
    }
}

func permissions(of path: String) throws -> UInt32 {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw TestFailure("no file at \(path)") }
    return UInt32(info.st_mode) & 0o777
}

/// Binds a Unix socket at `path` and closes it without removing the file, as a crashed daemon would.
func makeStaleSocket(at path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard result == 0 else { throw TestFailure("bind failed: \(String(cString: strerror(errno)))") }
}
